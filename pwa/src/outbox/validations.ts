/**
 * Votes (validations) in the outbox, as pure functions (unit-tested in validations.test.ts).
 *
 * A vote goes through the same IndexedDB outbox as examples. `validateExample` has no client UUID:
 * the server keeps one vote per example and user, so the outbox key is derived from both
 * (`vote:<user>:<example>`) — one vote per example on this device too — and a `ConflictError` with the code
 * ALREADY_VALIDATED after a lost reply means the vote is stored: the item is done (exactly once
 * from the validator's point of view).
 */
import { localized } from "../i18n/runtime";
import type { ErrorResult, FieldError, ValidateExampleResult, ValidationLabel, ValidationMode } from "../api/types";

export interface ValidationOutboxItem {
  kind: "validation";
  clientId: string; // vote:<username>:<exampleId>
  username: string;
  taskCode: string;
  taskName: string;
  roundId: string;
  exampleId: string;
  label: ValidationLabel;
  mode: ValidationMode;
  note: string;
  /** The task's validator fields for this vote (absent in items written before they existed). */
  fields?: Record<string, unknown>;
  summary: string; // what was voted on, for the outbox page
  createdAt: number;
  state: "pending" | "failed";
  attempts: number;
  lastAttemptAt: number | null;
  lastError: string | null;
  failure: { code: string; message: string; fields: FieldError[] } | null;
}

export const VOTE_EN: Record<ValidationLabel, string> = {
  CORRECT: "Correct",
  INCORRECT: "Incorrect",
  FLAGGED: "Flagged",
};

export const VOTE_TEXT = localized("votes", VOTE_EN);

/** The keyboard shortcut for each vote (1 / 2 / 3). */
export const VOTE_KEYS: Record<string, ValidationLabel> = { "1": "CORRECT", "2": "INCORRECT", "3": "FLAGGED" };

export function voteKey(username: string, exampleId: string): string {
  return `vote:${username}:${exampleId}`;
}

export function newValidationItem(
  vote: {
    exampleId: string;
    label: ValidationLabel;
    mode: ValidationMode;
    note?: string;
    fields?: Record<string, unknown>;
    roundId: string;
    summary: string;
  },
  meta: { username: string; taskCode: string; taskName: string },
  now: number,
): ValidationOutboxItem {
  return {
    kind: "validation",
    clientId: voteKey(meta.username, vote.exampleId),
    username: meta.username,
    taskCode: meta.taskCode,
    taskName: meta.taskName,
    roundId: vote.roundId,
    exampleId: vote.exampleId,
    label: vote.label,
    mode: vote.mode,
    note: (vote.note ?? "").trim(),
    fields: vote.fields ?? {},
    summary: vote.summary,
    createdAt: now,
    state: "pending",
    attempts: 0,
    lastAttemptAt: null,
    lastError: null,
    failure: null,
  };
}

export type VoteOutcome = "done" | "refused" | "retry" | "signIn";

const REFUSED = new Set(["InputError", "NotFoundError", "ConflictError", "PermissionError"]);

/** What the server's answer to one vote means for its outbox item. */
export function classifyVote(result: ValidateExampleResult | null | undefined): VoteOutcome {
  if (!result) return "retry";
  if (result.__typename === "ExampleValidated") return "done";
  // The vote is stored already: an earlier attempt got through and only its reply was lost.
  if (result.__typename === "ConflictError" && result.code === "ALREADY_VALIDATED") return "done";
  if (result.__typename === "AuthenticationError") return "signIn";
  if (REFUSED.has(result.__typename)) return "refused";
  return "retry";
}

/** The item after the server answered (null: it is done and leaves the outbox). */
export function afterVote(item: ValidationOutboxItem, result: ValidateExampleResult | null | undefined): {
  outcome: VoteOutcome;
  item: ValidationOutboxItem | null;
} {
  const outcome = classifyVote(result);
  switch (outcome) {
    case "done":
      return { outcome, item: null };
    case "refused": {
      const error = result as ErrorResult;
      return {
        outcome,
        item: { ...item, state: "failed", lastError: null, failure: { code: error.code, message: error.message, fields: error.fields ?? [] } },
      };
    }
    default:
      return { outcome, item: { ...item, lastError: (result as ErrorResult | null)?.message ?? "No answer for this vote." } };
  }
}

/** Example ids the validator has voted on but whose votes have not been delivered (hide them from the queue). */
export function votedExampleIds(items: { kind?: string; username: string; exampleId?: string }[], username: string): Set<string> {
  const ids = new Set<string>();
  for (const item of items) {
    if (item.kind === "validation" && item.username === username && item.exampleId) ids.add(item.exampleId);
  }
  return ids;
}
