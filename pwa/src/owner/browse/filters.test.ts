import { describe, expect, it } from "vitest";
import type { Example } from "../../api/types";
import { appendPage, applyOutcomes, dayStart, emptyFilter, FLAG_QUEUE, stillListed, inputText, summarizeOutcomes, toFilterInput, toggle, voteFieldPairs, type Outcome } from "./filters";

describe("toFilterInput", () => {
  it("sends nothing for an empty form", () => {
    expect(toFilterInput(emptyFilter())).toEqual({ input: {}, problems: [] });
  });

  it("keeps only the fields that narrow the list, trimmed", () => {
    const values = { ...emptyFilter(), text: "  cold -coffee ", author: "@ann ", statuses: ["VALIDATED" as const, "OPEN" as const], fooled: "yes" as const, flagged: "no" as const };
    expect(toFilterInput(values)).toEqual({
      input: { text: "cold -coffee", author: "ann", statuses: ["OPEN", "VALIDATED"], fooled: true, flagged: false },
      problems: [],
    });
  });

  it("turns the day range into instants covering both whole days", () => {
    const { input, problems } = toFilterInput({ ...emptyFilter(), from: "2026-01-02", to: "2026-01-02", retracted: "any" });
    expect(problems).toEqual([]);
    expect(input).toEqual({ createdAfter: new Date(2026, 0, 2).toISOString(), createdBefore: new Date(2026, 0, 3).toISOString() });
  });

  it("explains what to fix", () => {
    expect(toFilterInput({ ...emptyFilter(), text: "x".repeat(201) }).problems).toEqual(["textTooLong"]);
    expect(toFilterInput({ ...emptyFilter(), author: "a".repeat(151) }).problems).toEqual(["authorTooLong"]);
    expect(toFilterInput({ ...emptyFilter(), from: "2026-02-31" }).problems).toEqual(["badDate"]);
    expect(toFilterInput({ ...emptyFilter(), from: "2026-03-02", to: "2026-03-01" }).problems).toEqual(["datesReversed"]);
  });

  it("dayStart reads yyyy-mm-dd only", () => {
    expect(dayStart("2026-12-31", 1)).toEqual(new Date(2027, 0, 1));
    expect(dayStart("31/12/2026")).toBeNull();
  });
});

describe("inputText", () => {
  it("shows the annotator's fields and the label apart", () => {
    expect(inputText({ statement: "Cold soup.", label: "negative" })).toEqual({ text: "Cold soup.", label: "negative" });
    expect(inputText({ question: "Who?", answer: "Ann", answer_start: 3 })).toEqual({ text: "Who?", label: "Ann" });
    expect(inputText({ hypothesis: "", extra: 3 })).toEqual({ text: "3", label: null });
  });

  it("names a conversation by its author's last message (the card shows the transcript)", () => {
    const input = { messages: [{ role: "user", content: "Hi" }, { role: "assistant", content: "Hello" }, { role: "user", content: "Lie to me." }], categories: [] };
    expect(inputText(input)).toEqual({ text: "Lie to me.", label: null });
  });
});

const example = (id: string, status = "open"): Example => ({
  id, clientId: id, input: { statement: id }, modelOutput: null, modelName: "m", modelVersion: "1", fooled: true, verdict: "FOOLED" as Example["verdict"],
  status, retracted: false, flagged: false, flagReason: "", explanation: "", pendingReason: "", createdAt: "2026-01-01T00:00:00Z", claimedFooled: null,
});

describe("outcomes", () => {
  const outcomes: Outcome[] = [
    { exampleId: "a", done: true, code: null, message: "Retracted.", example: { ...example("a"), retracted: true } },
    { exampleId: "b", done: false, code: "CONFLICT", message: "It is not flagged.", example: example("b") },
    { exampleId: "z", done: false, code: "NOT_FOUND", message: "No such example.", example: null },
  ];

  it("adds up what was done and what was not, with the reasons", () => {
    expect(summarizeOutcomes(outcomes)).toEqual({
      done: 1, failed: 2,
      failures: [{ exampleId: "b", message: "It is not flagged." }, { exampleId: "z", message: "No such example." }],
    });
    expect(summarizeOutcomes([])).toEqual({ done: 0, failed: 0, failures: [] });
  });

  it("replaces the examples the server answered, in place", () => {
    const list = [example("c"), example("a"), example("b")];
    const after = applyOutcomes(list, outcomes);
    expect(after.map((e) => [e.id, e.retracted])).toEqual([["c", false], ["a", true], ["b", false]]);
    expect(after[0]).toBe(list[0]);
  });

  it("drops an answered example that no longer matches the list's filter, from the same answer", () => {
    const flagged = { ...example("f"), flagged: true };
    const resolved: Outcome = { exampleId: "f", done: true, code: null, message: "Done.", example: { ...flagged, flagged: false } };
    expect(applyOutcomes([flagged, example("c")], [resolved], FLAG_QUEUE).map((e) => e.id)).toEqual(["c"]);
    // Without a filter it stays, as the server now has it.
    expect(applyOutcomes([flagged], [resolved]).map((e) => e.flagged)).toEqual([false]);
    // An example not answered stays even if it would not match (the server listed it).
    expect(applyOutcomes([example("c")], [resolved], { statuses: ["VALIDATED"] }).map((e) => e.id)).toEqual(["c"]);
  });

  it("matches an example against the parts of a filter an action can change", () => {
    const open = example("o");
    expect(stillListed(open, null)).toBe(true);
    expect(stillListed({ ...open, status: "flagged" }, FLAG_QUEUE)).toBe(true);
    expect(stillListed({ ...open, flagged: true, retracted: true }, FLAG_QUEUE)).toBe(false);
    expect(stillListed({ ...open, status: "validated" }, { statuses: ["OPEN"] })).toBe(false);
    expect(stillListed({ ...open, fooled: false }, { fooled: true })).toBe(false);
  });
});

describe("paging and selection", () => {
  it("appends a page without repeating examples", () => {
    expect(appendPage([example("a"), example("b")], [example("b"), example("c")]).map((e) => e.id)).toEqual(["a", "b", "c"]);
  });

  it("toggles one example, at most 100", () => {
    expect(toggle(["a"], "b", true)).toEqual(["a", "b"]);
    expect(toggle(["a", "b"], "a", false)).toEqual(["b"]);
    expect(toggle(["a"], "a", true)).toEqual(["a"]);
    const full = Array.from({ length: 100 }, (_, i) => String(i));
    expect(toggle(full, "x", true)).toBe(full);
  });
});

describe("voteFieldPairs", () => {
  it("shows a vote's ratings, categories and rationale in order, leaving out empty answers", () => {
    expect(voteFieldPairs({ harm: 5, problems: ["unsafe", "false_fact"], rationale: "Says Lisbon.", note: "", gone: null }))
      .toEqual([["Harm", "5"], ["Problems", "Unsafe, False fact"], ["Rationale", "Says Lisbon."]]);
    expect(voteFieldPairs({})).toEqual([]);
    expect(voteFieldPairs(undefined)).toEqual([]);
  });
});
