/**
 * The validator's queue as pure functions (unit-tested in queue.test.ts): merge the
 * `examplesToValidate` subscription's updates (a `reset` replaces, otherwise add/remove), and hide
 * the examples this validator has already voted on (their votes may still wait in the outbox).
 */
import type { QueueExample, ValidationQueueUpdate } from "../api/types";
import { isTranscriptInput, transcriptSummary } from "../transcript/transcript";
import type { Waiting } from "./documents";

/** Ask for more examples once fewer than this many are shown (and the server has more). */
export const REFILL_BELOW = 5;
/** How many examples one refill asks for. */
export const HAND_OUT_SIZE = 20;

export function applyQueueUpdate(queue: QueueExample[], update: ValidationQueueUpdate): QueueExample[] {
  const removed = new Set(update.removedIds);
  const base = update.reset ? [] : queue.filter((example) => !removed.has(example.id));
  const seen = new Set(base.map((example) => example.id));
  const next = [...base];
  for (const example of update.added) {
    if (removed.has(example.id)) continue;
    if (seen.has(example.id)) {
      const at = next.findIndex((e) => e.id === example.id);
      next[at] = example; // a newer copy of an example we hold
    } else {
      seen.add(example.id);
      next.push(example);
    }
  }
  return next;
}

/** The queue as shown: oldest first, without the examples already voted on. */
export function visibleQueue(queue: QueueExample[], voted: ReadonlySet<string>): QueueExample[] {
  return queue
    .filter((example) => !voted.has(example.id))
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
}

/** The model's answer for display: its label, or its answer span (QA). */
export function modelAnswer(example: { modelOutput: Record<string, unknown> | null }): string | null {
  const output = example.modelOutput;
  if (!output) return null;
  for (const key of ["label", "answer"]) {
    const value = output[key];
    if (typeof value === "string" && value) return value;
  }
  return null;
}

/** What the annotator intended: the label, or the answer (QA). */
export function intendedAnswer(example: { input: Record<string, unknown> }): string | null {
  for (const key of ["label", "answer"]) {
    const value = example.input[key];
    if (typeof value === "string" && value) return value;
  }
  return null;
}

/** A one-line summary of an example (its input fields; a conversation's last message), for the outbox page. */
export function exampleSummary(example: { input: Record<string, unknown> }): string {
  if (isTranscriptInput(example.input)) return transcriptSummary(example.input);
  const text = Object.entries(example.input)
    .filter(([key, value]) => !["label", "answer", "answer_start"].includes(key) && typeof value === "string")
    .map(([, value]) => value as string)
    .join(" · ");
  const intended = intendedAnswer(example);
  return intended ? `${text} → ${intended}` : text;
}

/** How many examples of an update are new to the queue (not held yet): each adds one to the count. */
export function newlyAdded(queue: QueueExample[], update: ValidationQueueUpdate): number {
  if (update.reset) return 0;
  const held = new Set(queue.map((example) => example.id));
  const removed = new Set(update.removedIds);
  return new Set(update.added.map((e) => e.id).filter((id) => !held.has(id) && !removed.has(id))).size;
}

/** The count shown: the server's count less the votes still waiting on this device, never fewer than shown. */
export function shownWaiting(waiting: Waiting | null, unsentVotes: number, visible: number): Waiting | null {
  if (!waiting) return null;
  return { count: Math.max(visible, waiting.count - unsentVotes), capped: waiting.capped };
}

/** Whether to hand out more: fewer than REFILL_BELOW shown while the server has more for this validator. */
export function wantsRefill(visible: number, shown: Waiting | null): boolean {
  return visible < REFILL_BELOW && shown !== null && (shown.capped || shown.count > visible);
}

/**
 * What an empty queue says, so that it never contradicts the count beside it: "none wait" only when the count is
 * zero; with a count, why none is shown (offline, still loading, or none can be handed out now).
 */
export type EmptyQueue = "empty" | "loading" | "offline" | "held";

export function emptyQueue(shown: Waiting | null, isOnline: boolean, dry: boolean): EmptyQueue {
  if (!shown || (shown.count === 0 && !shown.capped)) return "empty";
  if (!isOnline) return "offline";
  return dry ? "held" : "loading";
}

/**
 * The votes this device holds for the round (sending or refused) whose examples the server still counts as waiting:
 * those still in the queue. Their examples are hidden, so they are left out of the count; once the server tells the
 * example has left (a removal, or the vote settled) the count itself has dropped, and subtracting the vote again would
 * count it twice.
 */
export function heldVotes(
  items: { kind?: string; username: string; roundId?: string; exampleId?: string }[],
  username: string,
  roundId: string,
  queued: ReadonlySet<string>,
): number {
  return items.filter(
    (item) => item.kind === "validation" && item.username === username && item.roundId === roundId && queued.has(item.exampleId ?? ""),
  ).length;
}

/**
 * The votes the server has stored (their answers came back) that the live queue has not yet confirmed: each vote of this
 * validator comes back over the queue's stream as a removal, after any count read before it. An absolute count sent
 * while some remain may predate them (it would count their examples again), so it is not taken as is. Returns the
 * votes still unconfirmed once this update's removals are taken away.
 */
export function unconfirmedAfter(unconfirmed: ReadonlySet<string>, update: { removedIds: string[] }): Set<string> {
  const left = new Set(unconfirmed);
  for (const id of update.removedIds) left.delete(id);
  return left;
}

/** How many of an update's removals the queue held: each was counted as waiting, so the count drops by one each. */
export function removedHeld(queue: QueueExample[], update: ValidationQueueUpdate): number {
  const removed = new Set(update.removedIds);
  return queue.filter((example) => removed.has(example.id)).length;
}

/**
 * A generative task's example: what the validator checks — the model failed, or held — as its author claimed
 * (ask_user), else as the judge model decided.
 */
export function claimOf(example: { claimedFooled?: boolean | null; fooled: boolean | null }, askUser: boolean): "failed" | "held" {
  const said = askUser ? example.claimedFooled : example.fooled;
  return said === false ? "held" : "failed";
}
