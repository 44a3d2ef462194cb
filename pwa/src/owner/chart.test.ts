import { describe, expect, it } from "vitest";
import { CHART, pathOf, points, xOf, yOf } from "./chart";

describe("MER chart geometry", () => {
  it("maps rates to y (0 at the bottom, 1 at the top, clamped) and rounds to evenly spread x", () => {
    expect(yOf(0)).toBe(CHART.height - CHART.bottom);
    expect(yOf(1)).toBe(CHART.top);
    expect(yOf(2)).toBe(CHART.top);
    expect(xOf(0, 3)).toBe(CHART.left);
    expect(xOf(2, 3)).toBe(CHART.width - CHART.right);
    expect(xOf(0, 1)).toBe(CHART.left + (CHART.width - CHART.left - CHART.right) / 2);
  });

  it("orders rounds by number and leaves gaps for rounds without a rate", () => {
    const rounds = [
      { number: 3, mer: 0.5, vmer: 0.25 },
      { number: 1, mer: 0.2, vmer: null },
      { number: 2, mer: null, vmer: 0.1 },
    ];
    expect(points(rounds, "mer").map((p) => p.round)).toEqual([1, 3]);
    expect(points(rounds, "vmer").map((p) => p.value)).toEqual([0.1, 0.25]);
    const mer = pathOf(rounds, "mer");
    expect(mer.match(/M/g)).toHaveLength(2); // the null in round 2 breaks the line
    expect(mer.includes("L")).toBe(false);
    expect(pathOf(rounds, "vmer")).toMatch(/^M[\d.]+ [\d.]+ L[\d.]+ [\d.]+$/);
  });
});
