/**
 * Claims in the outbox — the author's answer to "Did the model get it wrong?" on a task whose annotators
 * judge the model (fooling `ask_user`) — as pure functions (unit-tested in claims.test.ts).
 *
 * A claim goes through the same IndexedDB outbox as examples and votes: one per example from this
 * device (key `claim:<user>:<example>`), sent with `claimFooled` and its own client UUID (`claimId`), so a
 * resend after a lost reply is answered with the stored claim (`duplicate: true`): stored exactly once.
 */
import { localized } from "../i18n/runtime";
import type { ClaimFooledResult, ErrorResult, FieldError } from "../api/types";

/** Every string the claim question shows, in one place for translation. */
export const CLAIM_EN = {
  question: "Did the model get it wrong?",
  hint: "Compare the model's answer with what you meant. Other people will check your answer.",
  yes: "Yes, it got it wrong",
  no: "No, it got it right",
  sending: "Sending your answer…",
  savedOffline: "Your answer is saved on this device and will be sent when you are online.",
  refused: "Your answer was refused:",
  refusedBecause: (message: string) => `Your answer was refused: ${message}`.trimEnd(),
  sendAgain: "Send again",
  outbox: (modelWasWrong: boolean) => `Your answer “${modelWasWrong ? "the model got it wrong" : "the model got it right"}” on:`,
  // Validators of an ask_user task: the claim is the question.
  validateWrong: "The author says the model got this wrong. Was the model really wrong?",
  validateRight: "The author says the model got this right. Was the model really right?",
  validateLead: "Each author says whether the model got their example wrong; check it. Vote with the buttons or the keys 1, 2 and 3.",
  voteYes: "Yes",
  voteNo: "No",
} as const;

export const CLAIM_TEXT = localized("claims", CLAIM_EN);

export interface ClaimOutboxItem {
  kind: "claim";
  clientId: string; // claim:<username>:<exampleId> (the outbox key)
  claimId: string; // the claimFooled client UUID
  username: string;
  taskCode: string;
  taskName: string;
  roundId: string;
  exampleId: string;
  modelWasWrong: boolean;
  summary: string; // what the claim is about, for the outbox page
  createdAt: number;
  state: "pending" | "failed";
  attempts: number;
  lastAttemptAt: number | null;
  lastError: string | null;
  failure: { code: string; message: string; fields: FieldError[] } | null;
}

export function claimKey(username: string, exampleId: string): string {
  return `claim:${username}:${exampleId}`;
}

export function newClaimItem(
  claim: { exampleId: string; modelWasWrong: boolean; roundId: string; summary: string },
  meta: { username: string; taskCode: string; taskName: string },
  now: number,
  claimId: string,
): ClaimOutboxItem {
  return {
    kind: "claim",
    clientId: claimKey(meta.username, claim.exampleId),
    claimId,
    username: meta.username,
    taskCode: meta.taskCode,
    taskName: meta.taskName,
    roundId: claim.roundId,
    exampleId: claim.exampleId,
    modelWasWrong: claim.modelWasWrong,
    summary: claim.summary,
    createdAt: now,
    state: "pending",
    attempts: 0,
    lastAttemptAt: null,
    lastError: null,
    failure: null,
  };
}

export type ClaimOutcome = "done" | "refused" | "retry" | "signIn";

const REFUSED = new Set(["InputError", "NotFoundError", "ConflictError", "PermissionError"]);

/** What the server's answer to one claim means for its outbox item (a refusal the schema does not list yet: retry). */
export function classifyClaim(result: ClaimFooledResult | ErrorResult | null | undefined): ClaimOutcome {
  if (!result) return "retry";
  if (result.__typename === "FoolingClaimed") return "done"; // duplicate: true after a lost reply too
  if (result.__typename === "AuthenticationError") return "signIn";
  if (REFUSED.has(result.__typename)) return "refused";
  return "retry";
}

/** The item after the server answered (null: it is done and leaves the outbox). */
export function afterClaim(item: ClaimOutboxItem, result: ClaimFooledResult | ErrorResult | null | undefined): {
  outcome: ClaimOutcome;
  item: ClaimOutboxItem | null;
} {
  const outcome = classifyClaim(result);
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
      return { outcome, item: { ...item, lastError: (result as ErrorResult | null)?.message ?? "No answer for this claim." } };
  }
}

/** This user's claim on an example still in the outbox (waiting or refused), if any. */
export function claimWaiting(
  items: { kind?: string; clientId: string }[],
  username: string,
  exampleId: string,
): ClaimOutboxItem | undefined {
  const key = claimKey(username, exampleId);
  return items.find((item): item is ClaimOutboxItem => item.kind === "claim" && item.clientId === key);
}
