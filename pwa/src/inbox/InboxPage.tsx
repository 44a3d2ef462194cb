/** The viewer's notifications: newest first, mark read (one or all), and which kinds also come by email. */
import { useEffect, useState } from "preact/hooks";
import { describeError, request } from "../api/client";
import { useObservable } from "../lib/observable";
import { href } from "../router";
import type { PageProps } from "../routes";
import { PREFERENCES, SET_PREFERENCES, type NotificationKind, type Preferences } from "./documents";
import { inbox, loadOlder, mark, refresh } from "./state";
import { formatDateTime } from "../i18n/format";
import { INBOX_TEXT as T, NOTIFICATION_KINDS } from "./text";

export function InboxPage(_props: PageProps) {
  const state = useObservable(inbox);
  const [unreadOnly, setUnreadOnly] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    refresh().catch((e) => setError(describeError(e)));
  }, []);
  const act = (ids: string[] | "all") =>
    mark(ids).then(
      (problem) => setError(problem && T.failed(problem)),
      (e) => setError(T.failed(describeError(e))),
    );
  const shown = unreadOnly ? state.items.filter((n) => !n.read) : state.items;
  return (
    <section aria-labelledby="page-title" class="inbox">
      <h1 id="page-title" tabIndex={-1}>{T.title}</h1>
      {error && <p role="alert" class="error">{error}</p>}
      <p class="inbox-tools">
        <label><input type="checkbox" checked={unreadOnly} onChange={(e) => setUnreadOnly(e.currentTarget.checked)} /> {T.unreadOnly}</label>{" "}
        <button type="button" onClick={() => act("all")} disabled={state.unread === 0}>{T.markAllRead}</button>{" "}
        <span role="status">{state.unread === 0 && state.loaded ? T.allRead : ""}</span>
      </p>
      {!state.loaded ? (
        <p role="status">{T.loading}</p>
      ) : shown.length === 0 ? (
        <p>{T.empty}</p>
      ) : (
        <ul class="example-list" data-testid="inbox-list">
          {shown.map((n) => (
            <li class={`card example-row${n.read ? "" : " unread"}`} key={n.id}>
              <h2>
                {!n.read && <span class="status-tag">{T.unread}</span>} <a href={href(n.link)}>{n.title}</a>
              </h2>
              <p class="example-row-head">
                <span class="status-tag">{T.kind(n.kind)}</span>{" "}
                <time dateTime={n.createdAt}>{formatDateTime(n.createdAt)}</time>
              </p>
              {n.body && <p>{n.body}</p>}
              {!n.read && <button type="button" onClick={() => act([n.id])}>{T.markRead}</button>}
            </li>
          ))}
        </ul>
      )}
      {state.more && <button type="button" onClick={() => loadOlder().catch((e) => setError(describeError(e)))}>{T.more}</button>}
      <EmailPreferences />
    </section>
  );
}

function EmailPreferences() {
  const [prefs, setPrefs] = useState<Preferences | null>(null);
  const [note, setNote] = useState("");
  useEffect(() => {
    request(PREFERENCES, {}).then((d) => setPrefs(d.notificationPreferences), (e) => setNote(describeError(e)));
  }, []);
  if (!prefs) return note ? <p role="alert" class="error">{note}</p> : null;
  const toggle = (kind: NotificationKind, on: boolean) =>
    setPrefs({ ...prefs, emailKinds: on ? [...prefs.emailKinds, kind] : prefs.emailKinds.filter((k) => k !== kind) });
  const save = async (e: Event) => {
    e.preventDefault();
    try {
      const { setNotificationPreferences: result } = await request(SET_PREFERENCES, { emailKinds: prefs.emailKinds });
      setNote(result.__typename === "NotificationPreferencesSaved" ? T.saved : T.failed("message" in result ? result.message : ""));
    } catch (error) {
      setNote(T.failed(describeError(error)));
    }
  };
  return (
    <form onSubmit={save} class="card">
      <fieldset>
        <legend><h2>{T.emailTitle}</h2></legend>
        <p>{prefs.emailAvailable ? T.emailLead : T.emailUnavailable}</p>
        {NOTIFICATION_KINDS.map((kind) => (
          <label key={kind} class="inbox-kind">
            <input
              type="checkbox"
              checked={prefs.emailKinds.includes(kind)}
              disabled={!prefs.emailAvailable}
              onChange={(e) => toggle(kind, e.currentTarget.checked)}
            />{" "}
            {T.kind(kind)}
          </label>
        ))}
        <button type="submit" disabled={!prefs.emailAvailable}>{T.save}</button> <span role="status">{note}</span>
      </fieldset>
    </form>
  );
}
