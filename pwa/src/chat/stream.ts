/**
 * The chat's pure rules: a reply accumulating from replyStream's chunks (the first event of a subscription carries
 * everything so far, later ones the new text, the last one `done` with the outcome), what may be done when (send,
 * stop, retry, submit), and what the live region says — once per reply, when it is complete, never per token.
 */
import { textLength } from "../forms/values";
import { CHAT_TEXT as T } from "./text";

export type ReplyStatus = "GENERATING" | "DONE" | "STOPPED" | "FAILED";

export interface ReplyAttempt {
  reply: string;
  status: ReplyStatus;
  error: string;
}

export interface Turn {
  id: string;
  position: number;
  message: string;
  reply: string;
  status: ReplyStatus;
  error: string;
  modelName: string;
  modelVersion: string;
  judgeScore: number | null;
  attempts: ReplyAttempt[];
  /** The reply reached the platform's length bound (known from its stream's end only). */
  truncated?: boolean;
}

export interface Conversation {
  id: string;
  contextId: string;
  messagesLeft: number;
  exampleId: string | null;
  turns: Turn[];
}

export interface ReplyChunk {
  turnId: string;
  text: string;
  done: boolean;
  status: ReplyStatus;
  error: string;
  judgeScore: number | null;
  truncated: boolean;
}

/**
 * The turn after one event of its reply's stream. `first`: the subscription's first event (after a start, a restart or
 * a reconnect), which carries the whole text so far and replaces it; later events append. A finished turn ignores
 * events (a late duplicate of the end cannot append the text twice).
 */
export function applyChunk(turn: Turn, chunk: ReplyChunk, first: boolean): Turn {
  if (chunk.turnId !== turn.id || turn.status !== "GENERATING") return turn;
  const reply = first ? chunk.text : turn.reply + chunk.text;
  if (!chunk.done) return { ...turn, reply };
  return {
    ...turn,
    reply,
    status: chunk.status,
    error: chunk.error,
    judgeScore: chunk.judgeScore ?? turn.judgeScore,
    truncated: chunk.truncated,
  };
}

/** The conversation with `turn` in its place (by id), or added at the end. */
export function withTurn(conversation: Conversation, turn: Turn): Conversation {
  const at = conversation.turns.findIndex((t) => t.id === turn.id);
  const turns = at >= 0 ? conversation.turns.map((t, i) => (i === at ? turn : t)) : [...conversation.turns, turn];
  return { ...conversation, turns };
}

/**
 * A re-read conversation, keeping what only the stream told: a truncated reply, and the text of a reply still being
 * written (its stream is ahead of the stored text, and its next events append to what is shown).
 */
export function reread(before: Conversation | null, stored: Conversation): Conversation {
  if (!before || before.id !== stored.id) return stored;
  return {
    ...stored,
    turns: stored.turns.map((t) => {
      const old = before.turns.find((o) => o.id === t.id);
      if (!old) return t;
      if (t.status === "GENERATING") {
        return old.status === "GENERATING" && old.attempts.length === t.attempts.length ? { ...t, reply: old.reply } : t;
      }
      return old.truncated ? { ...t, truncated: true } : t;
    }),
  };
}

/** The turn whose reply is being written, if any (only the last one can be). */
export function streamingTurn(conversation: Conversation | null): Turn | null {
  const last = conversation?.turns[conversation.turns.length - 1];
  return last && last.status === "GENERATING" ? last : null;
}

/** Retry is offered on the last reply when it failed or was stopped, before the conversation is submitted. */
export function canRetry(conversation: Conversation | null, turn: Turn): boolean {
  if (!conversation || conversation.exampleId) return false;
  const last = conversation.turns[conversation.turns.length - 1];
  return last?.id === turn.id && (turn.status === "FAILED" || turn.status === "STOPPED");
}

/** How many more messages may be sent: the server's count once a conversation exists, else the task's limit. */
export function messagesLeft(conversation: Conversation | null, turnLimit: number): number {
  if (!conversation) return turnLimit;
  return conversation.exampleId ? 0 : conversation.messagesLeft;
}

export type SendBlock = "submitted" | "noneLeft" | "streaming" | null;

/** Why Send is not available now (null: it is). */
export function sendBlock(conversation: Conversation | null, turnLimit: number): SendBlock {
  if (conversation?.exampleId) return "submitted";
  if (streamingTurn(conversation)) return "streaming";
  if (messagesLeft(conversation, turnLimit) <= 0) return "noneLeft";
  return null;
}

/** What is wrong with a message before it is sent (the server checks the same: not blank, at most `max` code points). */
export function messageProblem(text: string, max: number): string | null {
  if (!text.trim()) return T.messageEmpty;
  if (textLength(text) > max) return T.messageTooLong(max);
  return null;
}

/** A conversation may be submitted once a reply has text and nothing is being written. */
export function canSubmit(conversation: Conversation | null): boolean {
  if (!conversation || conversation.exampleId || streamingTurn(conversation)) return false;
  return conversation.turns.some((t) => t.reply.length > 0);
}

// ---- The live region ----------------------------------------------------------------------------------------------

export interface Announcement {
  key: string; // one reply: its turn and attempt
  text: string;
}

/** One reply of a turn: a retry is a new reply of the same turn. */
export function replyKey(turn: Pick<Turn, "id" | "attempts">): string {
  return `${turn.id}#${turn.attempts.length}`;
}

/** What the live region says about a finished reply (null while it is being written). */
export function announcementOf(turn: Turn): string | null {
  switch (turn.status) {
    case "GENERATING":
      return null;
    case "DONE":
      return turn.reply.trim() ? T.announceReplied(turn.reply) : T.announceEmpty;
    case "STOPPED":
      return T.announceStopped;
    case "FAILED":
      return T.announceFailed(turn.error || T.failedNoReason);
  }
}

/** How many announcements the live region keeps (only additions are read out; older ones are dropped quietly). */
export const KEPT_ANNOUNCEMENTS = 3;

/**
 * The live region's log after a turn changed: a reply seen being written (`before` GENERATING) that is now finished
 * is added once; anything else (a reply already finished when the page loaded, a second event of the same end, a
 * re-read) leaves the log as it was.
 */
export function announce(log: Announcement[], before: Turn | undefined, after: Turn): Announcement[] {
  if (!before || before.status !== "GENERATING" || after.status === "GENERATING") return log;
  const key = replyKey(after);
  const text = announcementOf(after);
  if (text === null || log.some((a) => a.key === key)) return log;
  return [...log, { key, text }].slice(-KEPT_ANNOUNCEMENTS);
}

// ---- The judge (judge_model tasks) --------------------------------------------------------------------------------

/** A reply scoring at least the threshold means the model failed (one rule with the stored transcripts' view). */
export { judgeFails } from "../transcript/transcript";

/** The judge's score of each reply as a submitted example stores them (`modelOutput.replies[].judge_score`). */
export function storedJudgeScores(modelOutput: Record<string, unknown> | null | undefined): (number | null)[] {
  const replies = modelOutput?.replies;
  if (!Array.isArray(replies)) return [];
  return replies.map((r) => {
    const score = (r as { judge_score?: unknown } | null)?.judge_score;
    return typeof score === "number" ? score : null;
  });
}
