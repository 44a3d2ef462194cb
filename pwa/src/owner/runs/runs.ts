/** Pure logic of the owner's adversary runs panel: the count field, which runs are still going, when to poll. */
import type { AdversaryRun } from "./documents";

export const MAX_COUNT = 200; // the server's cap (server/annotation/adversary/rules.py)
export const POLL_MS = 3000;

/** The count typed in the field: a whole number from 1 to MAX_COUNT, else null. */
export function parseCount(text: string): number | null {
  if (!/^\s*\d+\s*$/.test(text)) return null;
  const n = Number(text.trim());
  return n >= 1 && n <= MAX_COUNT ? n : null;
}

export const isActive = (run: AdversaryRun) => run.status === "QUEUED" || run.status === "RUNNING";

/** Poll while a run is queued or running; stop once every run ended. */
export const shouldPoll = (runs: AdversaryRun[] | null) => Boolean(runs?.some(isActive));

/** A share of the produced examples as a whole percentage ("—" before any). */
export function share(part: number, produced: number): string {
  return produced > 0 ? `${Math.round((100 * part) / produced)}%` : "—";
}
