/**
 * Leaderboard weights as pure functions (unit-tested in weights.test.ts): the viewer's slider values,
 * what is sent to `leaderboard(metricWeights:, datasetWeights:)`, the share each metric gets after
 * normalization (Dynascore normalizes metric weights to sum 1), and a debounce for re-querying.
 */
import type { DatasetWeightInput, Metric, MetricWeightInput } from "../api/types";
import { formatNumber } from "../i18n/format";
import { LEADERBOARD_TEXT } from "./text";

export const METRICS: Metric[] = ["PERF", "THROUGHPUT", "MEMORY", "ROBUSTNESS", "FAIRNESS"];

/** The metrics' names in the UI locale (read through the leaderboard's text table at each access). */
export const METRIC_TEXT: Record<Metric, string> = new Proxy({} as Record<Metric, string>, {
  get: (_, metric) => LEADERBOARD_TEXT.metrics[metric as Metric],
});

/** Dynaboard's defaults: performance 4, every other metric 1. */
export const DEFAULT_METRIC_WEIGHTS: Record<Metric, number> = { PERF: 4, THROUGHPUT: 1, MEMORY: 1, ROBUSTNESS: 1, FAIRNESS: 1 };

export const WEIGHT_MIN = 0;
export const WEIGHT_MAX = 10;
export const WEIGHT_STEP = 0.5;

/** Clamp a slider value to the allowed range and step; anything unreadable becomes 0. */
export function clampWeight(value: number): number {
  if (!Number.isFinite(value)) return 0;
  const stepped = Math.round(value / WEIGHT_STEP) * WEIGHT_STEP;
  return Math.min(WEIGHT_MAX, Math.max(WEIGHT_MIN, stepped));
}

/** The weights the server used (its answer), over the defaults for metrics it did not list. */
export function metricWeightsFrom(list: { metric: Metric; weight: number }[]): Record<Metric, number> {
  const weights = { ...DEFAULT_METRIC_WEIGHTS };
  for (const { metric, weight } of list) if (metric in weights) weights[metric] = weight;
  return weights;
}

export function metricInputs(weights: Record<Metric, number>): MetricWeightInput[] {
  return METRICS.map((metric) => ({ metric, weight: clampWeight(weights[metric] ?? 0) }));
}

export function datasetInputs(weights: Record<string, number>): DatasetWeightInput[] {
  return Object.entries(weights)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([datasetId, weight]) => ({ datasetId, weight: clampWeight(weight) }));
}

/** Each metric's share of the Dynascore after normalizing the weights to sum 1 (all zero → all zero). */
export function metricShares(weights: Record<Metric, number>): Record<Metric, number> {
  const total = METRICS.reduce((sum, m) => sum + Math.max(0, weights[m] ?? 0), 0);
  return Object.fromEntries(METRICS.map((m) => [m, total > 0 ? Math.max(0, weights[m] ?? 0) / total : 0])) as Record<Metric, number>;
}

/** A stable key of the weights (equal weights → equal key): skip re-queries that would not change anything. */
export function weightsKey(metrics: Record<Metric, number>, datasets: Record<string, number>): string {
  return JSON.stringify([metricInputs(metrics), datasetInputs(datasets)]);
}

/** Call `fn` once, `wait` ms after the last call. */
export function debounce<A extends unknown[]>(fn: (...args: A) => void, wait: number) {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const debounced = (...args: A) => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      fn(...args);
    }, wait);
  };
  debounced.cancel = () => {
    if (timer) clearTimeout(timer);
    timer = null;
  };
  return debounced;
}

const digits = (n: number) => ({ minimumFractionDigits: n, maximumFractionDigits: n });

export function formatMetric(metric: Metric | "dynascore", value: number | null | undefined): string {
  if (value === null || value === undefined || Number.isNaN(value)) return "—";
  switch (metric) {
    case "PERF": // the server sends 0–100 (accuracy, macro F1, SQuAD F1)
      return formatNumber(value / 100, { style: "percent", ...digits(1) });
    case "ROBUSTNESS": // shares, 0–1
    case "FAIRNESS":
      return formatNumber(value, { style: "percent", ...digits(1) });
    case "THROUGHPUT":
      return LEADERBOARD_TEXT.perSecond(formatNumber(value, digits(1)));
    case "MEMORY":
      return LEADERBOARD_TEXT.gigabytes(formatNumber(value, digits(2)));
    default:
      return formatNumber(value, digits(3));
  }
}

/** What a metric's slider says about its share: its part of the score, or why moving it changes nothing now. */
export function shareText(metric: Metric, share: number, inEffect: Metric[] | undefined, models: number): string {
  if (inEffect && !inEffect.includes(metric)) {
    return models < 2 ? LEADERBOARD_TEXT.noEffectOneModel : LEADERBOARD_TEXT.noEffectNow;
  }
  return LEADERBOARD_TEXT.shareOfWeight(formatNumber(share, { style: "percent", maximumFractionDigits: 0 }));
}

/** A model's score broken down: the metrics that add at least half a percent, largest share first. Null when the
 * server could not give shares (exact Dynaboard numbers with a negative term, or a score of 0). */
export function breakdown(contributions: { metric: Metric; share: number | null }[]): { metric: Metric; share: number }[] | null {
  if (!contributions.length || contributions.some((c) => c.share === null)) return null;
  return contributions
    .filter((c): c is { metric: Metric; share: number } => c.share !== null && c.share >= 0.005)
    .sort((a, b) => b.share - a.share || METRICS.indexOf(a.metric) - METRICS.indexOf(b.metric));
}

/** "Performance 82 %, throughput 18 %" in the UI locale. */
export function breakdownText(parts: { metric: Metric; share: number }[]): string {
  return parts
    .map(({ metric, share }) => LEADERBOARD_TEXT.partOf(METRIC_TEXT[metric], formatNumber(share, { style: "percent", maximumFractionDigits: 0 })))
    .join(LEADERBOARD_TEXT.listSeparator);
}
