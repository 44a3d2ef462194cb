/**
 * The attempts on the shown context, kept on the device (IndexedDB `cache`, one entry per user + task + round, beside
 * the draft) so that a reload — even offline — shows them again; online, the writer's stored examples of the round
 * are merged in (one cheap query), and a queued attempt shows its verdict once the outbox delivers it.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { request } from "../api/client";
import { online } from "../lib/network";
import { delivered } from "../outbox/sync";
import { db } from "../storage/db";
import { delivered as deliveredAttempt, KEPT_ATTEMPTS, mergeStored, restoreAttempts, type Attempt, type SavedAttempts } from "./attempts";
import { ROUND_ATTEMPTS } from "./documents";

const STORED_ATTEMPTS = 50; // the writer's latest examples of the round, searched for the shown context's
const cacheKey = (draftKey: string) => `attempts:${draftKey}`;

/** The attempts kept for `draftKey` on `contextId`, with the verdicts the outbox got for queued ones meanwhile. */
export async function loadAttempts(draftKey: string, contextId: string): Promise<Attempt[]> {
  const database = await db();
  const [row, synced] = await Promise.all([database.get("cache", cacheKey(draftKey)), database.getAll("synced")]);
  return restoreAttempts(row?.value as SavedAttempts | undefined, contextId, synced);
}

// Writes are chained so that a slow write never lands after a newer one.
let chain: Promise<unknown> = Promise.resolve();

export function saveAttempts(draftKey: string, contextId: string, attempts: Attempt[]): Promise<void> {
  const value: SavedAttempts = { contextId, attempts: attempts.slice(0, KEPT_ATTEMPTS) };
  const write = chain.then(async () => {
    await (await db()).put("cache", { key: cacheKey(draftKey), value, savedAt: Date.now() });
  });
  chain = write.catch(() => {});
  return write;
}

/** The page's attempts on `contextId` (null: no context yet), restored, merged, kept and updated as described above. */
export function useAttempts(draftKey: string, roundId: string, contextId: string | null) {
  const [attempts, setAttempts] = useState<Attempt[]>([]);
  const loadedFor = useRef<string | null>(null); // the context whose kept attempts are in the list: saving is safe

  useEffect(() => {
    setAttempts([]);
    loadedFor.current = null;
    if (!contextId) return undefined;
    let cancelled = false;
    const keep = (more: Attempt[]) => (list: Attempt[]) => [...list, ...more.filter((a) => !list.some((b) => b.key === a.key))];
    loadAttempts(draftKey, contextId)
      .catch(() => [] as Attempt[])
      .then((restored) => {
        if (cancelled) return;
        setAttempts(keep(restored));
        loadedFor.current = contextId;
        if (!online.get()) return;
        request(ROUND_ATTEMPTS, { roundId, first: STORED_ATTEMPTS }).then(
          ({ myExamples }) => {
            if (!cancelled) setAttempts((list) => mergeStored(list, myExamples.edges.map((e) => e.node), contextId));
          },
          () => {}, // the history is a convenience: the page works without it
        );
      });
    return () => {
      cancelled = true;
    };
  }, [draftKey, contextId]);

  useEffect(() => {
    if (contextId && loadedFor.current === contextId) void saveAttempts(draftKey, contextId, attempts).catch(() => {});
  }, [attempts]);

  // A queued submission got delivered by the outbox: its verdict replaces "waiting to sync".
  useEffect(() => delivered.on((record) => setAttempts((list) => deliveredAttempt(list, record.clientId, record.view))), []);

  return [attempts, setAttempts] as const;
}
