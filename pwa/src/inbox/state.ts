/** The inbox shared by the bell and the page: the notifications read so far and the unread count, kept live by one
 * `notificationReceived` subscription (opened by the bell while signed in). */
import { request } from "../api/client";
import { subscribe } from "../api/ws";
import { reconnected } from "../lib/network";
import { observable } from "../lib/observable";
import { INBOX, MARK_READ, NOTIFICATION_RECEIVED, type Notification } from "./documents";
import { markRead, merge, newest } from "./inbox";

export const PAGE = 20;

export const inbox = observable<{ items: Notification[]; unread: number; loaded: boolean; more: string | null }>({
  items: [],
  unread: 0,
  loaded: false,
  more: null,
});

/** The newest page and the count; called on start and after a dropped connection came back. */
export async function refresh(): Promise<void> {
  const data = await request(INBOX, { first: PAGE, after: null, unreadOnly: false });
  const page = data.notifications;
  inbox.update((s) => ({
    items: merge(s.items, page.edges.map((e) => e.node)),
    unread: data.unreadNotificationCount,
    loaded: true,
    more: s.loaded ? s.more : page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null,
  }));
}

export async function loadOlder(): Promise<void> {
  const after = inbox.get().more;
  if (!after) return;
  const page = (await request(INBOX, { first: PAGE, after, unreadOnly: false })).notifications;
  inbox.update((s) => ({
    ...s,
    items: merge(s.items, page.edges.map((e) => e.node)),
    more: page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null,
  }));
}

/** Mark some (or all) read; the server's count is the truth afterwards. */
export async function mark(ids: string[] | "all"): Promise<string | null> {
  const { markNotificationsRead: result } = await request(MARK_READ, { ids: ids === "all" ? null : ids, all: ids === "all" });
  if (result.__typename !== "NotificationsMarked") return result.message;
  inbox.update((s) => ({ ...s, items: markRead(s.items, ids), unread: result.unreadCount }));
  return null;
}

/** Start following the viewer's inbox; returns the stop function. */
export function follow(): () => void {
  inbox.set({ items: [], unread: 0, loaded: false, more: null }); // another account's inbox is not this one's
  let stopLive: () => void = () => {};
  let stopped = false;
  const start = async () => {
    try {
      await refresh();
    } catch {
      // offline: the bell shows what it had; the next reconnect re-reads
    }
    if (stopped) return;
    stopLive();
    // After the read: from its newest entry on, or from the start when it was empty (nothing written between the read
    // and the subscription is missed).
    const since = newest(inbox.get().items) ?? btoa("Notification:0");
    stopLive = subscribe(NOTIFICATION_RECEIVED, { since }, ({ notificationReceived: n }) => {
      inbox.update((s) => ({
        ...s,
        items: merge(s.items, [n]),
        unread: s.items.some((x) => x.id === n.id) || n.read ? s.unread : s.unread + 1,
      }));
    });
  };
  void start();
  const off = reconnected.on(() => void start());
  return () => {
    stopped = true;
    stopLive();
    off();
  };
}
