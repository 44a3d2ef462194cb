/**
 * Drafts: what the annotator is writing, saved to IndexedDB on every keystroke, one per
 * user + task + round. The draft also keeps the context it was written against, so a reload
 * (even offline) shows the same passage.
 */
import type { Context, Verdict } from "../api/types";
import { db } from "../storage/db";

export interface Draft {
  key: string;
  username: string;
  taskCode: string;
  roundId: string;
  context: Context | null;
  fields: Record<string, unknown>; // the always-shown input fields' form values (pwa/src/forms/values.ts)
  label: string | null;
  answer: string | null;
  answerStart: number | null; // UTF-16 offset into the passage (the browser's)
  explanation: string;
  sandbox: boolean;
  /** The suggestion the text was taken from (pwa/src/suggest), sent with the submission; cleared once submitted. */
  suggestionId?: string | null;
  startedAt: number; // when writing against this context began (for timeSpentMs)
  updatedAt: number;
  /** Generative tasks (pwa/src/chat): the conversation being written, so a reload resumes it. */
  chat?: ChatDraft;
  /** Generative tasks with battles (pwa/src/battle): the battle being voted, so a reload resumes it. */
  battle?: BattleDraft;
}

/** A battle's part of a draft: its id once started, the prompt, and the UUIDs kept until their answers arrived. */
export interface BattleDraft {
  battleId: string | null;
  message: string;
  /** A prompt sent without an answer: sent again with the same UUID, the server starts one battle. */
  pending: { clientId: string; message: string } | null;
  /** The vote's UUID, choice and ratings, kept until its answer arrived (a resend returns the stored vote). */
  vote: { clientId: string; choice: string | null; ratings?: number[] | null } | null;
  /** continueBattle's UUID and side, kept until its answer arrived (a resend answers the same conversation). */
  continued?: { clientId: string; side: string } | null;
}

/** The chat's part of a draft (its input fields and explanation are the draft's `fields` and `explanation`). */
export interface ChatDraft {
  conversationId: string | null;
  /** The composer's text. */
  message: string;
  /** A message sent without an answer (offline, a lost reply): sent again with the same UUID, it is stored once. */
  pending: { clientId: string; message: string } | null;
  categories: string[];
  /** ask_user tasks: the author's answer to "did the model fail?". */
  modelFailed: boolean | null;
  /** The submission's UUID, kept until its answer arrived (a resend returns the stored example). */
  submitClientId: string | null;
  /** The submitted conversation's verdict, shown again after a reload. */
  result: ChatResult | null;
  /** The opening message suggested (pwa/src/suggest), sent with the submission so the example records it. */
  suggestionId?: string | null;
}

export interface ChatResult {
  exampleId: string | null;
  verdict: Verdict;
  message: string;
  /** judge_model tasks: each reply's score as the example stored it. */
  judgeScores: (number | null)[];
}

export function draftKey(username: string, taskCode: string, roundId: string): string {
  return `${username}/${taskCode}/${roundId}`;
}

export function emptyDraft(username: string, taskCode: string, roundId: string, now: number): Draft {
  return {
    key: draftKey(username, taskCode, roundId),
    username,
    taskCode,
    roundId,
    context: null,
    fields: {},
    label: null,
    answer: null,
    answerStart: null,
    explanation: "",
    sandbox: false,
    startedAt: now,
    updatedAt: now,
  };
}

/** The draft after a submission: same context, empty inputs, the clock restarted. */
export function clearedDraft(draft: Draft, now: number): Draft {
  return { ...draft, fields: {}, label: null, answer: null, answerStart: null, explanation: "", startedAt: now, updatedAt: now, suggestionId: null };
}

export async function loadDraft(key: string): Promise<Draft | undefined> {
  return (await db()).get("drafts", key);
}

// Writes are chained so that a slow write never lands after a newer one.
let chain: Promise<unknown> = Promise.resolve();

export function saveDraft(draft: Draft): Promise<void> {
  const write = chain.then(async () => {
    await (await db()).put("drafts", draft, draft.key);
  });
  chain = write.catch(() => {});
  return write;
}

export async function deleteDraft(key: string): Promise<void> {
  await (await db()).delete("drafts", key);
}
