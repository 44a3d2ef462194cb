/**
 * The outbox and the delivered-results list in IndexedDB, mirrored into observables for the UI.
 * Other tabs of the app hear about changes through a BroadcastChannel and re-read.
 */
import { observable } from "../lib/observable";
import { db } from "../storage/db";
import type { BatchPlan, OutboxItem, SyncedRecord } from "./outbox";

export const outboxItems = observable<OutboxItem[]>([]);
export const syncedRecords = observable<SyncedRecord[]>([]);

const KEEP_SYNCED = 100;
const channel = typeof BroadcastChannel === "function" ? new BroadcastChannel("dynabench-outbox") : null;
channel?.addEventListener("message", () => void reloadOutbox());

export async function reloadOutbox(): Promise<void> {
  const database = await db();
  const [items, synced] = await Promise.all([
    database.getAllFromIndex("outbox", "byCreatedAt"),
    database.getAllFromIndex("synced", "bySyncedAt"),
  ]);
  outboxItems.set(items);
  syncedRecords.set(synced.reverse());
}

async function changed(): Promise<void> {
  await reloadOutbox();
  channel?.postMessage("changed");
}

export async function putItem(item: OutboxItem): Promise<void> {
  await (await db()).put("outbox", item);
  await changed();
}

export async function putItems(items: OutboxItem[]): Promise<void> {
  const tx = (await db()).transaction("outbox", "readwrite");
  await Promise.all([...items.map((item) => tx.store.put(item)), tx.done]);
  await changed();
}

export async function allItems(): Promise<OutboxItem[]> {
  return (await db()).getAllFromIndex("outbox", "byCreatedAt");
}

/** Apply a batch's results in one transaction: delivered items leave the outbox and join `synced`. */
export async function applyPlan(plan: BatchPlan): Promise<void> {
  const tx = (await db()).transaction(["outbox", "synced"], "readwrite");
  const outbox = tx.objectStore("outbox");
  const synced = tx.objectStore("synced");
  const writes: Promise<unknown>[] = [];
  for (const record of plan.delivered) {
    writes.push(outbox.delete(record.clientId), synced.put(record));
  }
  for (const item of [...plan.refused, ...plan.retry]) {
    // Only update items still in the outbox (the user may have discarded one meanwhile).
    writes.push(outbox.get(item.clientId).then((current) => (current ? outbox.put(item) : undefined)));
  }
  writes.push(
    synced.index("bySyncedAt").getAllKeys().then(async (keys) => {
      for (const key of keys.slice(0, Math.max(0, keys.length - KEEP_SYNCED))) await synced.delete(key);
    }),
  );
  await Promise.all([...writes, tx.done]);
  await changed();
}

/** After a vote (or a claim) was sent: the item is done (null → removed) or updated, unless the user discarded it meanwhile. */
export async function applyVote(clientId: string, item: OutboxItem | null): Promise<void> {
  const tx = (await db()).transaction("outbox", "readwrite");
  const current = await tx.store.get(clientId);
  if (current) {
    if (item) await tx.store.put(item);
    else await tx.store.delete(clientId);
  }
  await tx.done;
  await changed();
}

export async function discardItem(clientId: string): Promise<void> {
  await (await db()).delete("outbox", clientId);
  await changed();
}

/** A failed item goes back to pending (e.g. after the round reopened). */
export async function retryItem(clientId: string): Promise<void> {
  const database = await db();
  const item = await database.get("outbox", clientId);
  if (!item) return;
  await database.put("outbox", { ...item, state: "pending", failure: null, lastError: null });
  await changed();
}

export async function getSynced(clientId: string): Promise<SyncedRecord | undefined> {
  return (await db()).get("synced", clientId);
}

export async function updateSyncedView(clientId: string, change: (record: SyncedRecord) => SyncedRecord): Promise<void> {
  const database = await db();
  const record = await database.get("synced", clientId);
  if (!record) return;
  await database.put("synced", change(record));
  await changed();
}
