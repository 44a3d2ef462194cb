import { describe, expect, it } from "vitest";
import { progressRows, type CampaignProgress } from "./progress";

const counts: CampaignProgress = {
  joined: 4, consented: 3, quizPassed: 2, quizFailed: 1, finished: 1, examples: 5, fooling: 2, validatedFooling: 1, validations: 7,
};

describe("progressRows", () => {
  it("gives each count with its share of the step before", () => {
    const rows = Object.fromEntries(progressRows(counts, true).map((r) => [r.name, r]));
    expect(rows.joined).toMatchObject({ count: 4, percent: null });
    expect(rows.consented).toMatchObject({ count: 3, percent: 75 });
    expect(rows.quizPassed).toMatchObject({ count: 2, percent: 67 });
    expect(rows.finished).toMatchObject({ count: 1, percent: 25 });
    expect(rows.fooling).toMatchObject({ count: 2, percent: 40 });
    expect(rows.validatedFooling).toMatchObject({ count: 1, percent: 50 });
    expect(rows.validations).toMatchObject({ count: 7, percent: null });
  });

  it("keeps the order and drops the quiz counts when there is no quiz", () => {
    expect(progressRows(counts, false).map((r) => r.name)).toEqual([
      "joined", "consented", "finished", "examples", "fooling", "validatedFooling", "validations",
    ]);
  });

  it("has no share of an empty base", () => {
    const empty = progressRows({ ...counts, joined: 0, consented: 0, examples: 0 }, true);
    expect(empty.find((r) => r.name === "consented")?.percent).toBeNull();
    expect(empty.find((r) => r.name === "quizPassed")?.percent).toBeNull();
    expect(empty.find((r) => r.name === "fooling")?.percent).toBeNull();
  });
});
