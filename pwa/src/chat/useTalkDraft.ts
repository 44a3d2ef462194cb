/**
 * The draft a generative page keeps (chat/ChatPage.tsx, battle/BattlePage.tsx): restored from the device (or started),
 * saved on every change, its scenario fetched when it has none, and what it talks in (a conversation, a battle)
 * read again after a reload, a reconnect or coming back online. The page says where that lives in the draft
 * (`idOf`), which one is on screen (`shownId`), how to read it again (`refresh`) and what a new scenario resets
 * (`fresh`).
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { describeError, request } from "../api/client";
import { NEXT_CONTEXT } from "../api/documents";
import { clearedDraft, emptyDraft, loadDraft, saveDraft, type Draft } from "../annotate/drafts";
import { reconnected } from "../lib/network";
import { loadTasks } from "../tasks/store";

export interface TalkDraftOptions {
  key: string;
  username: string;
  taskCode: string;
  roundId: string;
  isOnline: boolean;
  /** The conversation's or battle's id the draft holds. */
  idOf: (draft: Draft) => string | null | undefined;
  /** The one on screen, if any. */
  shownId: () => string | null | undefined;
  refresh: (id: string) => void | Promise<void>;
  /** The draft's conversation or battle part, emptied (with a new scenario). */
  fresh: (draft: Draft) => Draft;
  /** A restored draft held one: e.g. close the brief. */
  onResume?: () => void;
}

export function useTalkDraft(options: TalkDraftOptions) {
  const latest = useRef(options);
  latest.current = options; // effects registered once call the current render's callbacks
  const [draft, setDraft] = useState<Draft | null>(null);
  const draftRef = useRef<Draft | null>(null);
  const [loadingContext, setLoadingContext] = useState(false);
  const [contextError, setContextError] = useState<string | null>(null);

  /** Change the draft and save it (the promise: saved; callers that leave the page wait for it). */
  function change(update: (d: Draft) => Draft): Promise<void> {
    const current = draftRef.current;
    if (!current) return Promise.resolve();
    const next = { ...update(current), updatedAt: Date.now() };
    draftRef.current = next;
    setDraft(next);
    return saveDraft(next).then(() => undefined);
  }

  async function fetchContext(reason: "start" | "new") {
    setLoadingContext(true);
    setContextError(null);
    try {
      const { nextContext } = await request(NEXT_CONTEXT, { roundId: latest.current.roundId });
      const now = Date.now();
      void change((d) => latest.current.fresh({ ...(reason === "new" ? clearedDraft(d, now) : d), context: nextContext, startedAt: now }));
    } catch (error) {
      setContextError(describeError(error));
    } finally {
      setLoadingContext(false);
    }
  }

  // Restore the draft (its scenario and what it talks in) or start one.
  useEffect(() => {
    let cancelled = false;
    void loadDraft(options.key).then((saved) => {
      if (cancelled) return;
      const { username, taskCode, roundId, idOf, refresh, onResume } = latest.current;
      const initial = saved ?? emptyDraft(username, taskCode, roundId, Date.now());
      draftRef.current = initial;
      setDraft(initial);
      const id = idOf(initial);
      if (id) {
        onResume?.();
        void refresh(id);
      }
      if (!initial.context) void fetchContext("start");
    });
    return () => {
      cancelled = true;
    };
  }, [options.key]);

  // Back online or reconnected: re-read the task (its round may have closed) and what the draft talks in.
  useEffect(
    () =>
      reconnected.on(() => {
        void loadTasks();
        const { shownId, idOf, refresh } = latest.current;
        const id = shownId() ?? (draftRef.current ? idOf(draftRef.current) : null);
        if (id) void refresh(id);
      }),
    [],
  );
  useEffect(() => {
    const current = draftRef.current;
    if (!options.isOnline || !current) return;
    if (!current.context && !loadingContext) void fetchContext("start");
    const id = latest.current.idOf(current);
    if (id && !latest.current.shownId()) void latest.current.refresh(id);
  }, [options.isOnline]);

  return { draft, draftRef, change, loadingContext, contextError, fetchContext };
}
