/**
 * The outbox's rules, as pure functions (unit-tested in outbox.test.ts):
 *   - which items go in the next batch (oldest first, the current user's, not already in flight)
 *   - what each server result means for its item (delivered, refused for good, retry, sign in again)
 *   - how long to wait before the next attempt (exponential backoff with jitter, capped)
 */
import type { CreateExampleInput, CreateExampleResult, ErrorResult, FieldError } from "../api/types";
import { viewOfSubmission, type VerdictView } from "../annotate/verdict";
import type { ClaimOutboxItem } from "./claims";
import type { ValidationOutboxItem } from "./validations";

export const MAX_BATCH = 100; // the server's submitExamples limit

/** An example waiting to be sent (items written before validations existed have no `kind`). */
export interface ExampleOutboxItem {
  kind?: "example";
  clientId: string;
  username: string; // whose example this is; only their session sends it
  taskCode: string;
  taskName: string;
  roundId: string;
  input: CreateExampleInput; // includes clientId, never sandbox
  createdAt: number;
  state: "pending" | "failed";
  attempts: number;
  lastAttemptAt: number | null;
  lastError: string | null; // a transient problem (offline, server down)
  failure: { code: string; message: string; fields: FieldError[] } | null; // refused for good
}

export type OutboxItem = ExampleOutboxItem | ValidationOutboxItem | ClaimOutboxItem;

export function isExampleItem(item: OutboxItem): item is ExampleOutboxItem {
  return item.kind === undefined || item.kind === "example";
}

/** A delivered example and its verdict, kept for display after it left the outbox. */
export interface SyncedRecord {
  clientId: string;
  username: string;
  taskCode: string;
  taskName: string;
  roundId: string;
  summary: string;
  syncedAt: number;
  view: VerdictView;
}

export function newOutboxItem(
  input: CreateExampleInput & { clientId: string },
  meta: { username: string; taskCode: string; taskName: string },
  now: number,
): ExampleOutboxItem {
  const { sandbox: _sandbox, ...rest } = input;
  return {
    clientId: input.clientId,
    username: meta.username,
    taskCode: meta.taskCode,
    taskName: meta.taskName,
    roundId: input.roundId,
    input: { ...rest, clientId: input.clientId },
    createdAt: now,
    state: "pending",
    attempts: 0,
    lastAttemptAt: null,
    lastError: null,
    failure: null,
  };
}

/** The items `username` may send now: pending, not in flight, oldest first. */
export function sendable(items: OutboxItem[], username: string, inFlight: ReadonlySet<string>): OutboxItem[] {
  return items
    .filter((item) => item.state === "pending" && item.username === username && !inFlight.has(item.clientId))
    .sort((a, b) => a.createdAt - b.createdAt || a.clientId.localeCompare(b.clientId));
}

/** The next batch of examples to send: pending examples of `username`, oldest first, skipping those in flight. */
export function nextBatch(items: OutboxItem[], username: string, inFlight: ReadonlySet<string>, max = MAX_BATCH): ExampleOutboxItem[] {
  return sendable(items, username, inFlight).filter(isExampleItem).slice(0, max);
}

export type ResultKind = "delivered" | "refused" | "retry" | "signIn";

/** Errors that will not go away by sending the same input again (the draft stays, failed, for editing). */
const REFUSED = new Set(["InputError", "NotFoundError", "ConflictError", "RoundClosedError", "PermissionError", "DuplicateExampleError"]);

export function classifyResult(result: CreateExampleResult | null | undefined): ResultKind {
  if (!result) return "retry";
  if (result.__typename === "ExampleSubmitted") return "delivered";
  if (result.__typename === "AuthenticationError") return "signIn";
  if (REFUSED.has(result.__typename)) return "refused";
  return "retry"; // ModelUnavailableError or a result type this version does not know
}

export interface BatchPlan {
  delivered: SyncedRecord[]; // remove from the outbox, remember the verdict
  refused: OutboxItem[]; // keep, visible as failed with the server's message
  retry: OutboxItem[]; // keep pending, try again later
  signInRequired: boolean;
}

export function summaryOf(input: CreateExampleInput): string {
  const text = Object.values(input.fields ?? {}).filter((v) => typeof v === "string").join(" · ");
  const intended = input.label ?? input.answer;
  return intended ? `${text} → ${intended}` : text;
}

/** Match the server's results (one per input, in order) to the batch that was sent. */
export function planBatch(batch: ExampleOutboxItem[], results: (CreateExampleResult | null)[], now: number): BatchPlan {
  const plan: BatchPlan = { delivered: [], refused: [], retry: [], signInRequired: false };
  if (results.length !== batch.length) {
    plan.retry = batch.map((item) => ({ ...item, lastError: "The server's answer did not match the batch." }));
    return plan;
  }
  batch.forEach((item, i) => {
    const result = results[i];
    switch (classifyResult(result)) {
      case "delivered":
        plan.delivered.push({
          clientId: item.clientId,
          username: item.username,
          taskCode: item.taskCode,
          taskName: item.taskName,
          roundId: item.roundId,
          summary: summaryOf(item.input),
          syncedAt: now,
          view: viewOfSubmission(result as Extract<CreateExampleResult, { __typename: "ExampleSubmitted" }>, false, item.input.label ?? item.input.answer ?? null),
        });
        break;
      case "refused": {
        const error = result as ErrorResult;
        plan.refused.push({
          ...item,
          state: "failed",
          failure: { code: error.code, message: error.message, fields: error.fields ?? [] },
          lastError: null,
        });
        break;
      }
      case "signIn":
        plan.signInRequired = true;
        plan.retry.push({ ...item, lastError: (result as ErrorResult).message });
        break;
      default:
        plan.retry.push({ ...item, lastError: (result as ErrorResult | null)?.message ?? "No result for this example." });
    }
  });
  return plan;
}

export const BACKOFF_BASE_MS = 1_000;
export const BACKOFF_MAX_MS = 5 * 60_000;

/** Delay before retry number `failures` (1 = first retry): base·2^(n−1), capped, jittered to [50%, 100%]. */
export function backoffDelay(failures: number, random: () => number = Math.random): number {
  const exponent = Math.max(0, failures - 1);
  const ceiling = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.min(exponent, 30));
  return Math.round(ceiling * (0.5 + random() / 2));
}

/** Items the UI counts as "waiting to be sent". */
export function pendingCount(items: OutboxItem[], username: string | null): number {
  return items.filter((item) => item.state === "pending" && (username === null || item.username === username)).length;
}
