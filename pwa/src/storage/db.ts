/**
 * The app's IndexedDB database. One object store per concern:
 *   drafts  — the example being written, per user + task + round (autosaved on every keystroke)
 *   outbox  — examples waiting to be sent (or that the server refused), keyed by client UUID
 *   synced  — results of examples the outbox delivered, keyed by client UUID (shown with their verdict)
 *   cache   — last known API answers (task list, ...) so the app starts offline
 */
import { openDB, type DBSchema, type IDBPDatabase } from "idb";
import type { Draft } from "../annotate/drafts";
import type { OutboxItem, SyncedRecord } from "../outbox/outbox";

export interface AppDB extends DBSchema {
  drafts: { key: string; value: Draft };
  outbox: { key: string; value: OutboxItem; indexes: { byCreatedAt: number } };
  synced: { key: string; value: SyncedRecord; indexes: { bySyncedAt: number } };
  cache: { key: string; value: { key: string; value: unknown; savedAt: number } };
}

export const DB_NAME = "dynabench";
const DB_VERSION = 1;

let database: Promise<IDBPDatabase<AppDB>> | null = null;

export function db(): Promise<IDBPDatabase<AppDB>> {
  database ??= openDB<AppDB>(DB_NAME, DB_VERSION, {
    upgrade(upgrade, oldVersion) {
      if (oldVersion < 1) {
        upgrade.createObjectStore("drafts");
        upgrade.createObjectStore("outbox", { keyPath: "clientId" }).createIndex("byCreatedAt", "createdAt");
        upgrade.createObjectStore("synced", { keyPath: "clientId" }).createIndex("bySyncedAt", "syncedAt");
        upgrade.createObjectStore("cache", { keyPath: "key" });
      }
    },
    blocking() {
      // A newer version of the app wants to upgrade the database: let it.
      void database?.then((d) => d.close());
      database = null;
    },
  });
  return database;
}

export async function cacheGet<T>(key: string): Promise<T | undefined> {
  const row = await (await db()).get("cache", key);
  return row?.value as T | undefined;
}

export async function cachePut(key: string, value: unknown): Promise<void> {
  await (await db()).put("cache", { key, value, savedAt: Date.now() });
}

/** For tests: forget the open connection (fake-indexeddb is reset between tests). */
export function resetDbConnection(): void {
  database = null;
}

/** Ask the browser not to evict our data (drafts, outbox) under storage pressure. */
export async function requestPersistentStorage(): Promise<boolean> {
  try {
    if (!navigator.storage?.persist) return false;
    if (await navigator.storage.persisted()) return true;
    return await navigator.storage.persist();
  } catch {
    return false;
  }
}
