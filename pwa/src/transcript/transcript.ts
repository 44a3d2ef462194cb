/**
 * A submitted conversation as its example stores it (generative tasks, docs/task-config.md "Generative tasks"):
 * `input.messages` (system, then user and assistant in turn), `input.categories`, and `modelOutput.replies` (one per
 * assistant message: model, version, status, judge_score) with `modelOutput.judge.threshold` on judged tasks. Read
 * tolerantly (whatever is not understood is left out), for the Transcript view and the short previews. Pure.
 */

export type ReplyStatus = "DONE" | "STOPPED" | "FAILED";

/** One message of the conversation (the system text is kept apart). */
export interface TranscriptMessage {
  role: "user" | "assistant";
  content: string;
  /** assistant: its position among the replies (1, 2, …); user: its position among the author's messages. */
  number: number;
  /** assistant: how its reply ended (stored lower case; DONE when unknown). */
  status: ReplyStatus | null;
  /** assistant: the judge's score of this reply, when the task has a judge and it scored it. */
  judgeScore: number | null;
}

export interface StoredTranscript {
  /** What the model was told before the conversation (the system prompt and the scenario); "" when nothing. */
  system: string;
  messages: TranscriptMessage[];
  categories: string[];
  /** judge_model tasks: a reply scoring at least this means the model failed. */
  threshold: number | null;
}

type Obj = Record<string, unknown>;
const isObj = (value: unknown): value is Obj => typeof value === "object" && value !== null && !Array.isArray(value);
const finite = (value: unknown): number | null => (typeof value === "number" && Number.isFinite(value) ? value : null);

/** The input of a conversation's example (it holds a list of messages), not of a written example. */
export function isTranscriptInput(input: unknown): boolean {
  return isObj(input) && Array.isArray(input.messages);
}

function statusOf(raw: unknown): ReplyStatus {
  const status = typeof raw === "string" ? raw.toUpperCase() : "";
  return status === "STOPPED" || status === "FAILED" ? status : "DONE";
}

/** The stored conversation of an example, or null when its input holds none. */
export function readTranscript(input: unknown, modelOutput: unknown): StoredTranscript | null {
  if (!isObj(input) || !Array.isArray(input.messages)) return null;
  const output = isObj(modelOutput) ? modelOutput : {};
  const replies = Array.isArray(output.replies) ? output.replies : [];
  const system: string[] = [];
  const messages: TranscriptMessage[] = [];
  let users = 0;
  let assistants = 0;
  for (const raw of input.messages) {
    if (!isObj(raw) || typeof raw.content !== "string") continue;
    if (raw.role === "system") system.push(raw.content);
    else if (raw.role === "user") messages.push({ role: "user", content: raw.content, number: ++users, status: null, judgeScore: null });
    else if (raw.role === "assistant") {
      const reply = replies[assistants];
      assistants++;
      messages.push({
        role: "assistant",
        content: raw.content,
        number: assistants,
        status: statusOf(isObj(reply) ? reply.status : undefined),
        judgeScore: isObj(reply) ? finite(reply.judge_score) : null,
      });
    }
  }
  const categories = Array.isArray(input.categories)
    ? input.categories.filter((c, i, all): c is string => typeof c === "string" && c !== "" && all.indexOf(c) === i)
    : [];
  const judge = isObj(output.judge) ? output.judge : null;
  return { system: system.join("\n\n"), messages, categories, threshold: judge ? finite(judge.threshold) : null };
}

export interface TranscriptPreview {
  /** The author's last message and the reply it got (null when missing). */
  user: TranscriptMessage | null;
  reply: TranscriptMessage | null;
  /** How many messages the preview leaves out (shown when it is expanded). */
  hidden: number;
}

/** A short preview: the last message of the author and the last reply, when it answered that message. */
export function previewOf(transcript: StoredTranscript): TranscriptPreview {
  const { messages } = transcript;
  let at = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i].role === "user") {
      at = i;
      break;
    }
  }
  const user = at >= 0 ? messages[at] : null;
  const next = messages[at + 1];
  const reply = next?.role === "assistant" ? next : at < 0 ? (messages[messages.length - 1] ?? null) : null;
  const shown = (user ? 1 : 0) + (reply ? 1 : 0);
  return { user, reply, hidden: messages.length - shown };
}

/** One line naming a conversation (a card's checkbox label, an outbox summary): the author's last message. */
export function transcriptSummary(input: unknown): string {
  const transcript = readTranscript(input, null);
  if (!transcript) return "";
  return previewOf(transcript).user?.content ?? "";
}

/** A reply scoring at least the threshold means the model failed (server/annotation/conversations/transcript.py). */
export function judgeFails(score: number, threshold: number): boolean {
  return score >= threshold;
}
