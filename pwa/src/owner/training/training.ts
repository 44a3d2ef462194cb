/**
 * Pure logic of the owner's training runs page (docs/design.md §4.8a): the retraining form's checks (the server's
 * ranges, server/training/service.py), which actions a run offers by its status, when to follow runs live, and the
 * formatting of the gate's numbers (errors, differences, 95% intervals, p-values) and of a run's cost.
 */
import { formatNumber } from "../../i18n/format";
import type { TrainingProfile, TrainingRun } from "./documents";

// The server's limits (server/training/service.py, server/admin/audit.py).
export const MAX_ROUNDS = 50;
export const MAX_TOLERANCE = 1;
export const MAX_MIN_HELD_OUT = 100_000;
export const MAX_REASON = 500;
export const DEFAULT_TOLERANCE = "0.01";
export const DEFAULT_MIN_HELD_OUT = "30";
export const POLL_MS = 3000;
export const RUNS_SHOWN = 20;

export type RunStatus = "queued" | "training" | "evaluating" | "published" | "rejected" | "failed" | "cancelled";
export const STATUSES: readonly RunStatus[] = ["queued", "training", "evaluating", "published", "rejected", "failed", "cancelled"];
const ACTIVE = new Set<string>(["queued", "training", "evaluating"]);

export const isActive = (run: Pick<TrainingRun, "status">) => ACTIVE.has(run.status);

// ---------------------------------------------------------------------------------------------------------------------
// The retraining form

export interface TrainForm {
  rounds: number[]; // ticked round numbers (none: seed data only)
  profile: TrainingProfile;
  tolerance: string; // as typed: a decimal from 0 to 1 ("." or ",")
  minHeldOut: string; // as typed: a whole number from 1 to 100,000
  includeAgreed: boolean; // also train and judge on the non-fooling examples the target agreed with (not validated)
}

export type TrainField = "fromRounds" | "scoringTolerance" | "minHeldOut" | "profile";
export type TrainProblem = "tooManyRounds" | "unknownRound" | "tolerance" | "minHeldOut" | "profile";

export interface TrainRequest {
  fromRounds: number[];
  profile: TrainingProfile;
  scoringTolerance: number;
  minHeldOut: number;
  includeAgreed: boolean;
}

/** The form at first: the newest round ticked (rounds are newest first), the server's defaults, agreed examples in. */
export function initialTrainForm(rounds: readonly number[]): TrainForm {
  return {
    rounds: rounds.length ? [rounds[0]] : [], profile: "FULL", tolerance: DEFAULT_TOLERANCE, minHeldOut: DEFAULT_MIN_HELD_OUT,
    includeAgreed: true,
  };
}

/** A decimal as typed in any of the app's locales ("0.02", "0,02", " .5 "), else null. */
export function parseDecimal(text: string): number | null {
  const t = text.trim().replace(",", ".");
  if (!/^(\d+\.?\d*|\.\d+)$/.test(t)) return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

/** A whole number as typed (digits only, optional spaces around), else null. */
export function parseWhole(text: string): number | null {
  return /^\s*\d+\s*$/.test(text) ? Number(text.trim()) : null;
}

/** The form's problems by field (empty: valid), checked as the server checks them. */
export function checkTrainForm(form: TrainForm, known: readonly number[]): Partial<Record<TrainField, TrainProblem>> {
  const problems: Partial<Record<TrainField, TrainProblem>> = {};
  const rounds = [...new Set(form.rounds)];
  if (rounds.length > MAX_ROUNDS) problems.fromRounds = "tooManyRounds";
  else if (rounds.some((n) => !known.includes(n))) problems.fromRounds = "unknownRound";
  if (form.profile !== "FAST" && form.profile !== "FULL") problems.profile = "profile";
  const tolerance = parseDecimal(form.tolerance);
  if (tolerance === null || tolerance < 0 || tolerance > MAX_TOLERANCE) problems.scoringTolerance = "tolerance";
  const minimum = parseWhole(form.minHeldOut);
  if (minimum === null || minimum < 1 || minimum > MAX_MIN_HELD_OUT) problems.minHeldOut = "minHeldOut";
  return problems;
}

/** The mutation's arguments from a valid form (null when it is not). */
export function trainRequest(form: TrainForm, known: readonly number[]): TrainRequest | null {
  if (Object.keys(checkTrainForm(form, known)).length) return null;
  return {
    fromRounds: [...new Set(form.rounds)].sort((a, b) => a - b),
    profile: form.profile,
    scoringTolerance: parseDecimal(form.tolerance)!,
    minHeldOut: parseWhole(form.minHeldOut)!,
    includeAgreed: form.includeAgreed,
  };
}

/** The override's reason: required (not only spaces), at most 500 characters. */
export function checkReason(reason: string): "required" | "tooLong" | null {
  if (!reason.trim()) return "required";
  return reason.trim().length > MAX_REASON ? "tooLong" : null;
}

// ---------------------------------------------------------------------------------------------------------------------
// What a run offers, and following runs live

export type RunAction = "cancel" | "override" | "openRound";

/**
 * Cancel a queued or running run (not once a cancellation was asked: it stops at its next step); override a
 * rejected run's gate; open the next round with a published run's version (unless a round is judged by it already).
 */
export function actionsFor(run: Pick<TrainingRun, "status" | "cancelRequested" | "modelVersion">, versionInUse = false): RunAction[] {
  if (isActive(run)) return run.cancelRequested ? [] : ["cancel"];
  if (run.status === "rejected") return ["override"];
  if (run.status === "published" && run.modelVersion && !versionInUse) return ["openRound"];
  return [];
}

/** A retraining can start when no run of the task is active (the server refuses a second one). */
export const canStart = (runs: readonly Pick<TrainingRun, "status">[] | undefined) => !(runs ?? []).some(isActive);

/** The runs to follow: the active ones (ids sorted, so the list of subscriptions only changes with them). */
export const activeIds = (runs: readonly Pick<TrainingRun, "id" | "status">[] | undefined): string[] =>
  (runs ?? []).filter(isActive).map((r) => r.id).sort();

/**
 * How to follow the runs: subscribe to each active run (trainingRunUpdated), or poll the list every few seconds when
 * the live connection failed; nothing once every run ended, or offline (the page re-reads when the network is back).
 */
export function liveMode(runs: readonly Pick<TrainingRun, "id" | "status">[] | undefined, liveFailed: boolean, online: boolean) {
  if (!online || activeIds(runs).length === 0) return "idle" as const;
  return liveFailed ? ("poll" as const) : ("subscribe" as const);
}

/** Put a run's new state in the list (the newest first; a run not listed yet goes on top). */
export function mergeRun<T extends { id: string; createdAt: string }>(runs: readonly T[] | undefined, run: T): T[] {
  const list = runs ?? [];
  if (!list.some((r) => r.id === run.id)) return [run, ...list].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  return list.map((r) => (r.id === run.id ? run : r));
}

/** Status changes between two lists of runs (for the page's live announcements): [run id, new status]. */
export function statusChanges(before: readonly TrainingRun[] | undefined, after: readonly TrainingRun[]): [string, string][] {
  if (!before) return [];
  const old = new Map(before.map((r) => [r.id, r.status]));
  return after.filter((r) => old.has(r.id) && old.get(r.id) !== r.status).map((r) => [r.id, r.status]);
}

/** The version a round is judged by now, as `name:version` keys (the open-round action hides for these). */
export function versionsInUse(
  rounds: readonly { endAt?: string | null; targetModels: readonly { name: string; version: string; modelId?: string | null }[] }[],
) {
  return new Set(
    rounds.filter((r) => !r.endAt).flatMap((r) => r.targetModels.map((t) => (t.modelId ? `model:${t.modelId}` : `${t.name}:${t.version}`))),
  );
}

/** The key versionsInUse gives the version a run built: a retrained upload's new model, or the model's version. */
export function runVersionKey(run: { modelName: string; modelVersion: string; newModelId?: string | null }) {
  return run.newModelId ? `model:${run.newModelId}` : `${run.modelName}:${run.modelVersion}`;
}

// ---------------------------------------------------------------------------------------------------------------------
// Numbers

export const DASH = "—";

/** An error share (0 to 1) as a percentage with one decimal. */
export function formatError(value: number | null | undefined): string {
  return value === null || value === undefined ? DASH : formatNumber(value, { style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1 });
}

/** A difference of error shares, signed, in percentage points shown as a percentage ("+2.5%", "−1.0%", "0.0%"). */
export function formatDifference(value: number | null | undefined): string {
  if (value === null || value === undefined) return DASH;
  const rounded = Math.round(value * 1000) / 1000; // no "−0.0%"
  return formatNumber(rounded === 0 ? 0 : rounded, {
    style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1, signDisplay: "exceptZero",
  });
}

/** The 95% interval's two ends ([low, high]) formatted as differences, or null without an interval. */
export function formatInterval(low: number | null | undefined, high: number | null | undefined): [string, string] | null {
  if (low === null || low === undefined || high === null || high === undefined) return null;
  return [formatDifference(low), formatDifference(high)];
}

/** A p-value: three decimals, "< 0.001" below that. */
export function formatP(p: number | null | undefined): string {
  if (p === null || p === undefined) return DASH;
  if (p < 0.001) return `< ${formatNumber(0.001, { maximumFractionDigits: 3 })}`;
  return formatNumber(p, { minimumFractionDigits: 3, maximumFractionDigits: 3 });
}

/** Progress (0 to 1) as a whole percentage. */
export const formatProgress = (progress: number) =>
  formatNumber(Math.max(0, Math.min(1, progress)), { style: "percent", maximumFractionDigits: 0 });

/** A duration in seconds in the locale's units: "45 s", "2 min 5 s", "1 hr 3 min" (under 10 s: one decimal). */
export function formatDuration(seconds: number): string {
  const unit = (value: number, name: "hour" | "minute" | "second", digits = 0) =>
    formatNumber(value, { style: "unit", unit: name, unitDisplay: "short", maximumFractionDigits: digits });
  const s = Math.max(0, seconds);
  if (s < 10) return unit(Math.round(s * 10) / 10, "second", 1);
  const whole = Math.round(s);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const rest = whole % 60;
  if (h > 0) return m > 0 ? `${unit(h, "hour")} ${unit(m, "minute")}` : unit(h, "hour");
  if (m > 0) return rest > 0 ? `${unit(m, "minute")} ${unit(rest, "second")}` : unit(m, "minute");
  return unit(rest, "second");
}

/** CPU seconds as a number with at most one decimal. */
export const formatCpu = (seconds: number) => formatNumber(Math.max(0, seconds), { maximumFractionDigits: seconds < 100 ? 1 : 0 });
