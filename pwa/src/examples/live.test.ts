import { describe, expect, it } from "vitest";
import type { Example } from "../api/types";
import { belongsOnLoadedPages, mergeExampleUpdate } from "./live";

function ex(id: string, status = "open", createdAt = "2026-01-01"): Example {
  return {
    id, clientId: id, input: { statement: id }, modelOutput: null, modelName: "m", modelVersion: "1", fooled: true, verdict: "FOOLED",
    status, retracted: false, flagged: false, flagReason: "", explanation: "", pendingReason: "", createdAt, claimedFooled: null,
    round: { id: "R", number: 1, task: { code: "t", name: "T" } },
  } as Example;
}

describe("mergeExampleUpdate", () => {
  it("replaces the example held, keeping its round", () => {
    const pushed = { ...ex("b", "validated"), round: undefined } as unknown as Example;
    const merged = mergeExampleUpdate([ex("a"), ex("b")], pushed);
    expect(merged?.map((e) => e.status)).toEqual(["open", "validated"]);
    expect(merged?.[1].round?.task.code).toBe("t");
  });

  it("answers null for an example the list does not hold (the page re-reads)", () => {
    expect(mergeExampleUpdate([ex("a")], ex("z"))).toBeNull();
    expect(mergeExampleUpdate(null, ex("a"))).toBeNull();
  });
});

describe("belongsOnLoadedPages", () => {
  it("re-reads for an example newer than the oldest shown, not for one on a page not loaded", () => {
    const shown = [ex("b", "open", "2026-01-03T00:00:00Z"), ex("a", "open", "2026-01-02T00:00:00Z")];
    expect(belongsOnLoadedPages(shown, ex("c", "open", "2026-01-04T00:00:00Z"))).toBe(true);
    expect(belongsOnLoadedPages(shown, ex("old", "open", "2026-01-01T00:00:00Z"))).toBe(false);
    expect(belongsOnLoadedPages([], ex("c"))).toBe(true);
    expect(belongsOnLoadedPages(null, ex("c"))).toBe(true);
  });
});
