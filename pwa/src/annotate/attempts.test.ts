import { describe, expect, it } from "vitest";
import type { Example } from "../api/types";
import { addAttempt, attemptOfExample, delivered, KEPT_ATTEMPTS, mergeStored, restoreAttempts, tagsOf, withView, type Attempt } from "./attempts";
import { viewOfExample } from "./verdict";

const example = (id: string, contextId: string, over: Partial<Example> = {}): Example => ({
  id,
  clientId: `c-${id}`,
  input: { statement: `text ${id}`, label: "negative" },
  modelOutput: { label: "positive", probs: { positive: 0.9, negative: 0.1 } },
  modelName: "m",
  modelVersion: "1",
  fooled: true,
  verdict: "FOOLED",
  status: "open",
  retracted: false,
  flagged: false,
  flagReason: "",
  explanation: "",
  pendingReason: "",
  createdAt: "2026-01-01T00:00:00Z",
  claimedFooled: null,
  context: { id: contextId, fields: {} },
  ...over,
});

const queued = (key: string): Attempt => ({
  key,
  contextId: "ctx",
  clientId: key,
  exampleId: null,
  text: "t",
  fields: { statement: "t" },
  sandbox: false,
  stored: false,
  state: { kind: "queued", reason: "offline" },
});

describe("attempts", () => {
  it("turns a stored example into an attempt with its verdict and inputs only", () => {
    const a = attemptOfExample(example("1", "ctx"));
    expect(a.fields).toEqual({ statement: "text 1" });
    expect(a.text).toBe("text 1 → negative");
    expect(a.stored).toBe(true);
    expect(a.state.kind === "verdict" && a.state.view.verdict).toBe("FOOLED");
  });

  it("puts new attempts first and replaces one with the same key", () => {
    const list = addAttempt(addAttempt([], queued("a")), queued("b"));
    expect(list.map((a) => a.key)).toEqual(["b", "a"]);
    expect(addAttempt(list, { ...queued("a"), text: "new" }).map((a) => [a.key, a.text])).toEqual([["a", "new"], ["b", "t"]]);
  });

  it("adds the stored examples of this context only, without duplicating the session's", () => {
    const session = [{ ...attemptOfExample(example("1", "ctx")), stored: false }];
    const merged = mergeStored(session, [example("1", "ctx"), example("2", "ctx"), example("3", "other")], "ctx");
    expect(merged.map((a) => [a.exampleId, a.stored])).toEqual([["1", false], ["2", true]]);
  });

  it("applies a delivered verdict and later changes to the right attempt", () => {
    const view = viewOfExample(example("9", "ctx"));
    let list = delivered([queued("a"), queued("b")], "a", view);
    expect(list[0].exampleId).toBe("9");
    expect(list[1].state.kind).toBe("queued");
    list = withView(list, { ...view, flagged: true });
    expect(list[0].state.kind === "verdict" && tagsOf(list[0].state.view)).toEqual(["flagged"]);
  });

  it("restores the attempts kept for the shown context only, marked as from an earlier visit", () => {
    const saved = { contextId: "ctx", attempts: [queued("b"), queued("a")] };
    const restored = restoreAttempts(saved, "ctx", []);
    expect(restored.map((a) => [a.key, a.stored, a.state.kind])).toEqual([["b", true, "queued"], ["a", true, "queued"]]);
    expect(restoreAttempts(saved, "another", [])).toEqual([]);
    expect(restoreAttempts(undefined, "ctx", [])).toEqual([]);
    const many = { contextId: "ctx", attempts: Array.from({ length: KEPT_ATTEMPTS + 5 }, (_, i) => queued(`k${i}`)) };
    expect(restoreAttempts(many, "ctx", [])).toHaveLength(KEPT_ATTEMPTS);
  });

  it("shows the verdict the outbox got meanwhile for a restored queued attempt", () => {
    const view = viewOfExample(example("7", "ctx"));
    const restored = restoreAttempts({ contextId: "ctx", attempts: [queued("a"), queued("b")] }, "ctx", [{ clientId: "b", view }]);
    expect(restored[0].state.kind).toBe("queued");
    expect(restored[1].exampleId).toBe("7");
    expect(restored[1].state.kind === "verdict" && restored[1].state.view.verdict).toBe("FOOLED");
  });

  it("replaces a restored attempt with the server's fresher version, in place", () => {
    const stored = example("5", "ctx", { clientId: "a", verdict: "NOT_FOOLED", fooled: false });
    const restored = restoreAttempts({ contextId: "ctx", attempts: [queued("new"), queued("a")] }, "ctx", []);
    const session = { ...queued("live") };
    const merged = mergeStored([session, ...restored], [stored, example("6", "ctx")], "ctx");
    expect(merged.map((a) => a.key)).toEqual(["live", "new", "a", "c-6"]);
    expect(merged[2].state.kind === "verdict" && merged[2].state.view.verdict).toBe("NOT_FOOLED");
    expect(merged[0].state.kind).toBe("queued"); // this session's own attempts are kept as they are
  });
});
