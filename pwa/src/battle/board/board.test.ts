// The battle leaderboard's pure parts, and its documents against the server's schema.graphql.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { buildSchema, parse, validate } from "graphql";
import { describe, expect, it } from "vitest";
import { barOf, biasGroups, leaning, place, scaleOf, share, winRateCell } from "./board";
import { BOARD_DOCUMENTS } from "./documents";

const schema = buildSchema(readFileSync(fileURLToPath(new URL("../../../../schema.graphql", import.meta.url)), "utf8"));

describe("the shared scale", () => {
  it("covers every interval with a margin, snapped to tens", () => {
    expect(scaleOf([{ lower: 950, upper: 1010 }, { lower: 990, upper: 1062 }])).toEqual({ min: 940, max: 1080 });
    expect(scaleOf([{ lower: 1000, upper: 1000 }])).toEqual({ min: 990, max: 1010 });
    expect(scaleOf([])).toEqual({ min: 900, max: 1100 });
  });

  it("places ratings in % of the track, clamped", () => {
    const scale = { min: 900, max: 1100 };
    expect([place(900, scale), place(1000, scale), place(1100, scale)]).toEqual([0, 50, 100]);
    expect([place(800, scale), place(1300, scale), place(Number.NaN, scale)]).toEqual([0, 100, 50]);
    expect(place(5, { min: 1, max: 1 })).toBe(50);
  });

  it("draws a model's interval and its rating's mark on it", () => {
    expect(barOf({ rating: 1000, lower: 950, upper: 1050 }, { min: 900, max: 1100 })).toEqual({ start: 25, size: 50, point: 50 });
    // Bars of two models on the same scale compare: the wider interval is the wider bar.
    const scale = scaleOf([{ lower: 950, upper: 1050 }, { lower: 990, upper: 1010 }]);
    expect(barOf({ rating: 1000, lower: 950, upper: 1050 }, scale).size).toBeGreaterThan(barOf({ rating: 1000, lower: 990, upper: 1010 }, scale).size);
  });
});

describe("the numbers as text", () => {
  it("writes shares as whole percentages and leaves empty win-rate cells empty", () => {
    expect(share(0.875)).toBe("88%");
    expect(winRateCell(0.5)).toBe("50%");
    expect(winRateCell(null)).toBeNull();
  });
});

describe("battle leaderboard documents", () => {
  for (const [name, source] of Object.entries(BOARD_DOCUMENTS)) {
    it(`${name} is valid against schema.graphql`, () => {
      expect(validate(schema, parse(source)).map((e) => e.message)).toEqual([]);
    });
  }
});

describe("the position bias", () => {
  const item = (sides: number, label: string, lower: number, upper: number) => ({
    sides, label, picked: 0, decisive: 0, share: (lower + upper) / 2, lower, upper, chance: 1 / sides,
  });

  it("says whether chance lies outside a position's interval, and on which side", () => {
    expect(leaning(item(2, "A", 0.55, 0.7))).toBe("above");
    expect(leaning(item(2, "B", 0.3, 0.45))).toBe("below");
    expect(leaning(item(2, "A", 0.45, 0.6))).toBe("none");
    expect(leaning(item(3, "C", 0.25, 0.4))).toBe("none"); // a third is inside
  });

  it("groups the shares by number of sides, positions in order", () => {
    const groups = biasGroups([item(3, "B", 0, 1), item(2, "B", 0, 1), item(3, "A", 0, 1), item(2, "A", 0, 1)]);
    expect(groups.map((g) => [g.sides, g.shares.map((s) => s.label).join("")])).toEqual([[2, "AB"], [3, "AB"]]);
    expect(biasGroups([])).toEqual([]);
  });
});
