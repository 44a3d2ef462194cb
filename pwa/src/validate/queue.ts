/**
 * The validator's queue as pure functions (unit-tested in queue.test.ts): merge the
 * `examplesToValidate` subscription's updates (a `reset` replaces, otherwise add/remove), and hide
 * the examples this validator has already voted on (their votes may still wait in the outbox).
 */
import type { QueueExample, ValidationQueueUpdate } from "../api/types";

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

/** A one-line summary of an example (its input fields), for the outbox page. */
export function exampleSummary(example: { input: Record<string, unknown> }): string {
  const text = Object.entries(example.input)
    .filter(([key, value]) => !["label", "answer", "answer_start"].includes(key) && typeof value === "string")
    .map(([, value]) => value as string)
    .join(" · ");
  const intended = intendedAnswer(example);
  return intended ? `${text} → ${intended}` : text;
}
