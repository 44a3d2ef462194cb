// The chat's pure rules: a reply accumulating from replyStream, what may be done when, the live region's one
// announcement per reply, the judge's scores, and a generative config read with the server's defaults.
import { describe, expect, it } from "vitest";
import type { TaskConfig } from "../api/types";
import { generativeOf } from "./config";
import {
  announce, announcementOf, applyChunk, canRetry, canSubmit, KEPT_ANNOUNCEMENTS, messageProblem, messagesLeft, reread,
  replyKey, sendBlock, storedJudgeScores, streamingTurn, withTurn, type Conversation, type ReplyChunk, type Turn,
} from "./stream";

const turn = (patch: Partial<Turn> = {}): Turn => ({
  id: "t1", position: 0, message: "Hi", reply: "", status: "GENERATING", error: "", modelName: "chat_demo",
  modelVersion: "1", judgeScore: null, attempts: [], ...patch,
});
const chunk = (patch: Partial<ReplyChunk> = {}): ReplyChunk => ({
  turnId: "t1", text: "", done: false, status: "GENERATING", error: "", judgeScore: null, truncated: false, ...patch,
});
const conversation = (turns: Turn[], patch: Partial<Conversation> = {}): Conversation => ({
  id: "c1", contextId: "x1", messagesLeft: 2, exampleId: null, turns, ...patch,
});

/** A stream's events applied as the page applies them: `first` for the first event of each subscription. */
function play(start: Turn, events: [ReplyChunk, boolean][]): Turn {
  return events.reduce((t, [c, first]) => applyChunk(t, c, first), start);
}

describe("a reply from its stream", () => {
  it("replaces with the first event (everything so far), appends the later ones, ends with the outcome", () => {
    const done = play(turn(), [
      [chunk({ text: "The capital" }), true],
      [chunk({ text: " of France" }), false],
      [chunk({ text: " is Paris." }), false],
      [chunk({ done: true, status: "DONE", judgeScore: 0.25 }), false],
    ]);
    expect(done).toMatchObject({ reply: "The capital of France is Paris.", status: "DONE", judgeScore: 0.25, truncated: false });
  });

  it("a resubscription's first event (after a reconnect) replaces what was there, so nothing is doubled", () => {
    const resumed = play(turn(), [
      [chunk({ text: "Once upon" }), true],
      [chunk({ text: " a time" }), false],
      // the socket dropped; the new subscription starts with the whole text so far
      [chunk({ text: "Once upon a time there" }), true],
      [chunk({ text: " was" }), false],
      [chunk({ done: true, status: "STOPPED" }), false],
    ]);
    expect(resumed.reply).toBe("Once upon a time there was");
    expect(resumed.status).toBe("STOPPED");
  });

  it("a reply finished long ago arrives as one event carrying the text and the end", () => {
    const late = applyChunk(turn(), chunk({ text: "All of it.", done: true, status: "DONE", truncated: true }), true);
    expect(late).toMatchObject({ reply: "All of it.", status: "DONE", truncated: true });
  });

  it("a finished turn ignores late events, and another turn's events are not its own", () => {
    const finished = turn({ reply: "Done.", status: "DONE" });
    expect(applyChunk(finished, chunk({ text: " again" }), false)).toBe(finished);
    const writing = turn({ reply: "So" });
    expect(applyChunk(writing, chunk({ turnId: "t2", text: " far" }), false)).toBe(writing);
  });

  it("keeps the failure's error, and keeps text the model may have written as HTML verbatim", () => {
    const failed = play(turn(), [
      [chunk({ text: "<b>x</b> & <script>" }), true],
      [chunk({ done: true, status: "FAILED", error: "The model stopped answering." }), false],
    ]);
    expect(failed).toMatchObject({ reply: "<b>x</b> & <script>", status: "FAILED", error: "The model stopped answering." });
  });
});

describe("the live region: each reply once, when it is complete", () => {
  it("announces a reply seen being written when it ends, once, whatever repeats it", () => {
    const before = turn({ reply: "Par" });
    const after = turn({ reply: "Paris.", status: "DONE" });
    const log = announce([], before, after);
    expect(log).toEqual([{ key: "t1#0", text: "Model replied: Paris." }]);
    // the same end again (a re-read after the stream's end) adds nothing
    expect(announce(log, before, after)).toBe(log);
  });

  it("never announces while a reply is written, nor a reply that was finished when the page loaded", () => {
    expect(announce([], turn({ reply: "P" }), turn({ reply: "Pa" }))).toEqual([]);
    expect(announce([], undefined, turn({ reply: "Old.", status: "DONE" }))).toEqual([]);
    expect(announce([], turn({ reply: "Old.", status: "DONE" }), turn({ reply: "Old.", status: "DONE" }))).toEqual([]);
  });

  it("says a stop and a failure with its reason; a retry is a new reply of the same turn", () => {
    const stopped = announce([], turn(), turn({ reply: "Once", status: "STOPPED" }));
    expect(stopped.map((a) => a.text)).toEqual(["Reply stopped."]);
    const retried = turn({ attempts: [{ reply: "Once", status: "STOPPED", error: "" }] });
    const failed = announce(stopped, retried, { ...retried, status: "FAILED", error: "timeout" });
    expect(failed.map((a) => a.text)).toEqual(["Reply stopped.", "Reply failed: timeout"]);
    expect(failed.map((a) => a.key)).toEqual(["t1#0", "t1#1"]);
    expect(replyKey(retried)).toBe("t1#1");
  });

  it("an empty reply says so, and the log keeps only the last few", () => {
    expect(announcementOf(turn({ status: "DONE" }))).toBe("The model replied with no text.");
    expect(announcementOf(turn())).toBeNull();
    let log = announce([], turn(), turn({ status: "DONE", reply: "1" }));
    for (let i = 2; i <= 6; i++) log = announce(log, turn({ id: `t${i}` }), turn({ id: `t${i}`, status: "DONE", reply: String(i) }));
    expect(log).toHaveLength(KEPT_ANNOUNCEMENTS);
    expect(log[log.length - 1].text).toBe("Model replied: 6");
  });
});

describe("what may be done when", () => {
  it("sends until the limit, not while a reply is written, never after submitting", () => {
    expect(sendBlock(null, 3)).toBeNull();
    expect(messagesLeft(null, 3)).toBe(3);
    expect(sendBlock(conversation([turn()]), 3)).toBe("streaming");
    expect(sendBlock(conversation([turn({ status: "DONE" })], { messagesLeft: 0 }), 3)).toBe("noneLeft");
    expect(sendBlock(conversation([turn({ status: "DONE" })], { exampleId: "e1" }), 3)).toBe("submitted");
    expect(messagesLeft(conversation([turn({ status: "DONE" })], { exampleId: "e1", messagesLeft: 2 }), 3)).toBe(0);
  });

  it("checks a message as the server does (not blank, at most the limit in code points)", () => {
    expect(messageProblem("   ", 10)).toBe("Write a message first.");
    expect(messageProblem("😀".repeat(10), 10)).toBeNull(); // 20 UTF-16 units, 10 characters
    expect(messageProblem("x".repeat(11), 10)).toBe("At most 10 characters.");
  });

  it("offers Retry on the last reply when it failed or was stopped", () => {
    const first = turn({ status: "STOPPED", reply: "a" });
    const last = turn({ id: "t2", status: "FAILED" });
    const c = conversation([first, last]);
    expect(canRetry(c, first)).toBe(false);
    expect(canRetry(c, last)).toBe(true);
    expect(canRetry(conversation([turn({ status: "DONE" })]), turn({ status: "DONE" }))).toBe(false);
    expect(canRetry({ ...c, exampleId: "e1" }, last)).toBe(false);
  });

  it("submits once a reply has text and nothing is written", () => {
    expect(canSubmit(null)).toBe(false);
    expect(canSubmit(conversation([turn({ status: "FAILED" })]))).toBe(false);
    expect(canSubmit(conversation([turn({ status: "STOPPED", reply: "Once" })]))).toBe(true);
    expect(canSubmit(conversation([turn({ status: "DONE", reply: "a" }), turn({ id: "t2", reply: "b" })]))).toBe(false);
  });

  it("finds the reply being written, replaces turns by id and keeps what only the stream knew on a re-read", () => {
    const c = conversation([turn({ status: "DONE", reply: "a", truncated: true }), turn({ id: "t2" })]);
    expect(streamingTurn(c)?.id).toBe("t2");
    const next = withTurn(c, turn({ id: "t2", status: "DONE", reply: "b" }));
    expect(next.turns.map((t) => t.reply)).toEqual(["a", "b"]);
    expect(withTurn(c, turn({ id: "t3" })).turns).toHaveLength(3);
    const stored = conversation([turn({ status: "DONE", reply: "a" }), turn({ id: "t2", reply: "" })]);
    const merged = reread({ ...c, turns: [c.turns[0], turn({ id: "t2", reply: "streamed so far" })] }, stored);
    expect(merged.turns[0].truncated).toBe(true);
    expect(merged.turns[1].reply).toBe("streamed so far"); // still written: the stream is ahead of the stored text
    expect(reread(null, stored)).toBe(stored);
  });
});

describe("the judge's scores", () => {
  it("reads each reply's stored score", () => {
    expect(storedJudgeScores({ replies: [{ judge_score: 0.9 }, { judge_score: null }, {}] })).toEqual([0.9, null, null]);
    expect(storedJudgeScores(null)).toEqual([]);
  });
});

describe("a generative config", () => {
  const base = { kind: "generative", context_fields: [{ name: "scenario" }], input_fields: [] } as unknown as TaskConfig;

  it("reads the block with the server's defaults", () => {
    expect(generativeOf({ ...base, fooling: { metric: "ask_user" }, generative: { goal: "Make it lie." } })).toEqual({
      mode: "chat", turnLimit: 5, systemPrompt: "", goal: "Make it lie.", categories: [], maxMessageLength: 2000, judge: null,
      decider: "author", rating: null,
    });
  });

  it("prompt mode takes one message; a judge counts only under judge_model", () => {
    const generative = {
      mode: "prompt", max_turns: 9, goal: "g", attack_categories: ["false_fact"], max_message_length: 300,
      judge: { model: "toxicity", label: "toxic" },
    };
    const judged = generativeOf({ ...base, fooling: { metric: "judge_model" }, generative });
    expect(judged).toMatchObject({ mode: "prompt", turnLimit: 1, categories: ["false_fact"], maxMessageLength: 300 });
    expect(judged.judge).toEqual({ model: "toxicity", label: "toxic", threshold: 0.5 });
    expect(judged.decider).toBe("judge");
    expect(generativeOf({ ...base, fooling: { metric: "ask_user" }, generative }).judge).toBeNull();
  });

  it("validator_rating: the validators decide (nobody asks the author), with the rating rule", () => {
    const generative = { goal: "g", rating: { field: "harm", threshold: 4 }, judge: { model: "toxicity", label: "toxic" } };
    const rated = generativeOf({ ...base, fooling: { metric: "validator_rating" }, generative });
    expect(rated).toMatchObject({ decider: "validators", judge: null, rating: { field: "harm", threshold: 4 } });
    expect(generativeOf({ ...base, fooling: { metric: "ask_user" }, generative })).toMatchObject({ decider: "author", rating: null });
    expect(generativeOf({ ...base, fooling: { metric: "validator_rating" }, generative: { goal: "g" } }).rating).toBeNull();
  });
});
