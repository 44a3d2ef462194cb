import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  DEFAULT_METRIC_WEIGHTS, breakdown, breakdownText, clampWeight, datasetInputs, debounce, formatMetric, metricInputs, metricShares, metricWeightsFrom, shareText,
  weightsKey,
} from "./weights";

describe("weights", () => {
  it("clamps slider values to [0, 10] in steps of 0.5", () => {
    expect(clampWeight(3.3)).toBe(3.5);
    expect(clampWeight(-1)).toBe(0);
    expect(clampWeight(99)).toBe(10);
    expect(clampWeight(Number.NaN)).toBe(0);
  });

  it("starts from the server's weights over Dynaboard's defaults", () => {
    expect(metricWeightsFrom([])).toEqual(DEFAULT_METRIC_WEIGHTS);
    expect(metricWeightsFrom([{ metric: "THROUGHPUT", weight: 3 }])).toEqual({ ...DEFAULT_METRIC_WEIGHTS, THROUGHPUT: 3 });
  });

  it("sends every metric, in a fixed order, and dataset weights sorted by id", () => {
    expect(metricInputs({ ...DEFAULT_METRIC_WEIGHTS, MEMORY: 0 })).toEqual([
      { metric: "PERF", weight: 4 }, { metric: "THROUGHPUT", weight: 1 }, { metric: "MEMORY", weight: 0 },
      { metric: "ROBUSTNESS", weight: 1 }, { metric: "FAIRNESS", weight: 1 },
    ]);
    expect(datasetInputs({ b: 2, a: 0.25 })).toEqual([{ datasetId: "a", weight: 0.5 }, { datasetId: "b", weight: 2 }]);
  });

  it("shows each metric's normalized share (Dynascore weights sum to 1)", () => {
    const shares = metricShares(DEFAULT_METRIC_WEIGHTS);
    expect(shares.PERF).toBeCloseTo(0.5);
    expect(shares.MEMORY).toBeCloseTo(0.125);
    expect(Object.values(metricShares({ PERF: 0, THROUGHPUT: 0, MEMORY: 0, ROBUSTNESS: 0, FAIRNESS: 0 }))).toEqual([0, 0, 0, 0, 0]);
  });

  it("keys equal weights equally (no needless re-query)", () => {
    expect(weightsKey(DEFAULT_METRIC_WEIGHTS, { a: 1 })).toBe(weightsKey({ ...DEFAULT_METRIC_WEIGHTS }, { a: 1.1 }));
    expect(weightsKey(DEFAULT_METRIC_WEIGHTS, {})).not.toBe(weightsKey({ ...DEFAULT_METRIC_WEIGHTS, PERF: 5 }, {}));
  });

  it("formats metrics for people", () => {
    expect(formatMetric("PERF", 81.23)).toBe("81.2%"); // the server's performance is 0–100 already
    expect(formatMetric("PERF", 100)).toBe("100.0%");
    expect(formatMetric("ROBUSTNESS", 0.9)).toBe("90.0%"); // robustness and fairness are shares
    expect(formatMetric("MEMORY", 1.5)).toBe("1.50 GB");
    expect(formatMetric("THROUGHPUT", null)).toBe("—");
  });
});

describe("debounce", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("runs once with the last arguments after the quiet period", () => {
    const calls: number[] = [];
    const run = debounce((n: number) => calls.push(n), 300);
    run(1);
    run(2);
    vi.advanceTimersByTime(299);
    expect(calls).toEqual([]);
    run(3);
    vi.advanceTimersByTime(300);
    expect(calls).toEqual([3]);
    run(4);
    run.cancel();
    vi.advanceTimersByTime(1000);
    expect(calls).toEqual([3]);
  });
});

describe("shareText", () => {
  it("gives the share when the metric can move scores", () => {
    expect(shareText("MEMORY", 0.125, ["PERF", "MEMORY"], 3)).toBe("13% of all weights");
  });
  it("says why a slider has no effect instead of doing nothing silently", () => {
    expect(shareText("MEMORY", 0.125, ["PERF"], 1)).toContain("No effect with one model");
    expect(shareText("FAIRNESS", 0.125, ["PERF", "MEMORY"], 4)).toContain("do not differ");
    expect(shareText("PERF", 0.5, ["PERF"], 1)).toBe("50% of all weights");
  });
});

describe("breakdown", () => {
  it("lists the metrics that make up a score, largest share first, leaving out what adds nothing", () => {
    const parts = breakdown([
      { metric: "PERF", share: 0.7 },
      { metric: "THROUGHPUT", share: 0.002 },
      { metric: "MEMORY", share: 0.298 },
      { metric: "ROBUSTNESS", share: 0 },
      { metric: "FAIRNESS", share: 0 },
    ]);
    expect(parts).toEqual([{ metric: "PERF", share: 0.7 }, { metric: "MEMORY", share: 0.298 }]);
    expect(breakdownText(parts!)).toBe("Performance 70%, Memory 30%");
  });
  it("gives no shares when the server could not (a negative exact term)", () => {
    expect(breakdown([{ metric: "PERF", share: null }, { metric: "MEMORY", share: null }])).toBeNull();
    expect(breakdown([])).toBeNull();
  });
});
