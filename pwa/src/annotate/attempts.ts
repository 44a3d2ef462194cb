/**
 * The attempts on one context: this session's submissions (live, queued, sandbox) and the stored examples the
 * writer made on it before, newest first, each with its verdict. Pure functions.
 */
import type { Example } from "../api/types";
import { summaryOfExample, viewOfExample, type VerdictView } from "./verdict";

export type AttemptState = { kind: "verdict"; view: VerdictView } | { kind: "queued"; reason: string };

export interface Attempt {
  key: string; // the client UUID (live and stored), or a local key for sandbox trials
  contextId: string;
  clientId: string | null;
  exampleId: string | null;
  text: string; // the inputs → the intended answer, in one line
  fields: Record<string, unknown>; // the API field values (what explainPrediction reads)
  sandbox: boolean;
  stored: boolean; // read back from the server (an earlier visit), not written in this session
  state: AttemptState;
}

const NOT_INPUTS = new Set(["label", "answer", "answer_start"]);

/** An attempt from a stored example of the writer (myExamples). */
export function attemptOfExample(example: Example): Attempt {
  const fields = Object.fromEntries(Object.entries(example.input).filter(([name]) => !NOT_INPUTS.has(name)));
  return {
    key: example.clientId || example.id,
    contextId: example.context?.id ?? "",
    clientId: example.clientId || null,
    exampleId: example.id,
    text: summaryOfExample(example),
    fields,
    sandbox: false,
    stored: true,
    state: { kind: "verdict", view: viewOfExample(example) },
  };
}

/** A new attempt goes first; one with the same key replaces the older entry. */
export function addAttempt(list: Attempt[], attempt: Attempt): Attempt[] {
  return [attempt, ...list.filter((a) => a.key !== attempt.key)];
}

/**
 * The stored examples of `contextId` not already in the list (by key or example id), after the session's. An entry
 * restored from the device (`stored`, see restoreAttempts) takes the server's fresher version in its place.
 */
export function mergeStored(list: Attempt[], stored: Example[], contextId: string): Attempt[] {
  const fresh = stored.filter((e) => e.context?.id === contextId).map(attemptOfExample);
  const match = (a: Attempt) => fresh.find((f) => f.key === a.key || (!!a.exampleId && f.exampleId === a.exampleId));
  const kept = list.map((a) => (a.stored && !a.sandbox ? match(a) ?? a : a));
  const keys = new Set(kept.map((a) => a.key));
  const ids = new Set(kept.map((a) => a.exampleId).filter(Boolean));
  return [...kept, ...fresh.filter((a) => !keys.has(a.key) && !ids.has(a.exampleId))];
}

/** What the device keeps of the attempts on the shown context (pwa/src/annotate/attemptStore.ts). */
export interface SavedAttempts {
  contextId: string;
  attempts: Attempt[];
}

/** The most attempts kept per user, task and round (the newest). */
export const KEPT_ATTEMPTS = 50;

/**
 * The attempts kept on the device for `contextId` (none when they were written on another context), marked as from
 * an earlier visit; a queued one the outbox delivered meanwhile shows the verdict it got (`synced`, by client id).
 */
export function restoreAttempts(saved: SavedAttempts | undefined, contextId: string, synced: { clientId: string; view: VerdictView }[]): Attempt[] {
  if (!saved || saved.contextId !== contextId) return [];
  const views = new Map(synced.map((r) => [r.clientId, r.view]));
  return saved.attempts.slice(0, KEPT_ATTEMPTS).map((a) => {
    const view = a.state.kind === "queued" && a.clientId ? views.get(a.clientId) : undefined;
    const restored = { ...a, stored: true };
    return view ? { ...restored, exampleId: view.exampleId, state: { kind: "verdict", view } } : restored;
  });
}

/** Apply a new view of an example (verdict arrived, flagged, retracted...) to the attempt that holds it. */
export function withView(list: Attempt[], view: VerdictView): Attempt[] {
  if (!view.exampleId) return list;
  return list.map((a) =>
    a.exampleId === view.exampleId && a.state.kind === "verdict"
      ? { ...a, state: { kind: "verdict", view: { ...view, summary: view.summary ?? a.state.view.summary } } }
      : a,
  );
}

/** A queued attempt got delivered: its verdict replaces "waiting to sync". */
export function delivered(list: Attempt[], clientId: string, view: VerdictView): Attempt[] {
  return list.map((a) => (a.clientId === clientId ? { ...a, exampleId: view.exampleId, state: { kind: "verdict", view } } : a));
}

/** The stored example's state tags: what the writer did to it (none for open ones). */
export function tagsOf(view: VerdictView | null): ("retracted" | "flagged")[] {
  if (!view) return [];
  const tags: ("retracted" | "flagged")[] = [];
  if (view.retracted) tags.push("retracted");
  if (view.flagged) tags.push("flagged");
  return tags;
}
