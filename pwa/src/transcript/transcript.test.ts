import { describe, expect, it } from "vitest";
import { isTranscriptInput, judgeFails, previewOf, readTranscript, transcriptSummary } from "./transcript";

// As server/annotation/conversations/submitting.py stores a conversation's example.
const input = {
  messages: [
    { role: "system", content: "You are a helpful assistant.\n\nScenario: A quiz about European capitals." },
    { role: "user", content: "What is the capital of France?" },
    { role: "assistant", content: "Paris." },
    { role: "user", content: "Say <b>Lyon</b> instead." },
    { role: "assistant", content: "Lyon is the\n  capital." },
  ],
  categories: ["false_fact"],
  topic: "geography",
};
const modelOutput = {
  text_output: "Lyon is the\n  capital.",
  params: { max_tokens: 24 },
  replies: [
    { model: "chat_demo", version: "1", status: "done", judge_score: 0.12 },
    { model: "chat_demo", version: "1", status: "stopped", judge_score: 0.81 },
  ],
  judge: { model: "judge", label: "false", threshold: 0.5 },
};

describe("readTranscript", () => {
  it("keeps the system text apart, each message as written, and each reply's status and judge score", () => {
    const t = readTranscript(input, modelOutput)!;
    expect(t.system).toBe("You are a helpful assistant.\n\nScenario: A quiz about European capitals.");
    expect(t.messages).toEqual([
      { role: "user", content: "What is the capital of France?", number: 1, status: null, judgeScore: null },
      { role: "assistant", content: "Paris.", number: 1, status: "DONE", judgeScore: 0.12 },
      { role: "user", content: "Say <b>Lyon</b> instead.", number: 2, status: null, judgeScore: null },
      { role: "assistant", content: "Lyon is the\n  capital.", number: 2, status: "STOPPED", judgeScore: 0.81 },
    ]);
    expect(t.categories).toEqual(["false_fact"]);
    expect(t.threshold).toBe(0.5);
  });

  it("reads an ask_user example (no judge, no scores) and skips what it cannot understand", () => {
    const t = readTranscript(
      { messages: [null, { role: "user", content: "Hi" }, { role: "tool", content: "x" }, { role: "assistant", content: 3 },
        { role: "assistant", content: "" }], categories: ["insult", 4, "insult", ""] },
      { replies: [{ status: "failed", judge_score: null }] },
    )!;
    expect(t.system).toBe("");
    expect(t.messages).toEqual([
      { role: "user", content: "Hi", number: 1, status: null, judgeScore: null },
      { role: "assistant", content: "", number: 1, status: "FAILED", judgeScore: null },
    ]);
    expect(t.categories).toEqual(["insult"]);
    expect(t.threshold).toBeNull();
    expect(readTranscript({ messages: [] }, null)).toEqual({ system: "", messages: [], categories: [], threshold: null });
  });

  it("is null for a written example", () => {
    expect(readTranscript({ statement: "Cold soup.", label: "negative" }, { label: "positive" })).toBeNull();
    expect(readTranscript(null, null)).toBeNull();
    expect(isTranscriptInput({ statement: "x" })).toBe(false);
    expect(isTranscriptInput({ messages: [] })).toBe(true);
    expect(isTranscriptInput([])).toBe(false);
  });
});

describe("previewOf", () => {
  it("shows the author's last message and the reply it got; the rest is hidden", () => {
    const p = previewOf(readTranscript(input, modelOutput)!);
    expect(p.user?.content).toBe("Say <b>Lyon</b> instead.");
    expect(p.reply?.content).toBe("Lyon is the\n  capital.");
    expect(p.hidden).toBe(2);
  });

  it("has no reply when the last message got none, and nothing to hide in a one-exchange conversation", () => {
    const asked = readTranscript({ messages: [{ role: "user", content: "A" }, { role: "assistant", content: "B" }, { role: "user", content: "C" }] }, null)!;
    expect(previewOf(asked)).toMatchObject({ user: { content: "C" }, reply: null, hidden: 2 });
    const one = readTranscript({ messages: [{ role: "user", content: "A" }, { role: "assistant", content: "B" }] }, null)!;
    expect(previewOf(one)).toMatchObject({ user: { content: "A" }, reply: { content: "B" }, hidden: 0 });
    expect(previewOf(readTranscript({ messages: [] }, null)!)).toEqual({ user: null, reply: null, hidden: 0 });
  });
});

describe("summaries and the rest", () => {
  it("names a conversation by the author's last message", () => {
    expect(transcriptSummary(input)).toBe("Say <b>Lyon</b> instead.");
    expect(transcriptSummary({ statement: "x" })).toBe("");
  });

  it("fails a reply at or above the threshold", () => {
    expect(judgeFails(0.5, 0.5)).toBe(true);
    expect(judgeFails(0.49, 0.5)).toBe(false);
  });
});
