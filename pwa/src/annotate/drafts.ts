/**
 * Drafts: what the annotator is writing, saved to IndexedDB on every keystroke, one per
 * user + task + round. The draft also keeps the context it was written against, so a reload
 * (even offline) shows the same passage.
 */
import type { Context } from "../api/types";
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
  startedAt: number; // when writing against this context began (for timeSpentMs)
  updatedAt: number;
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
  return { ...draft, fields: {}, label: null, answer: null, answerStart: null, explanation: "", startedAt: now, updatedAt: now };
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
