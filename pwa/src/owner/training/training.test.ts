import { afterEach, describe, expect, it } from "vitest";
import { formatNumber } from "../../i18n/format";
import { activateCatalog } from "../../i18n/runtime";
import type { TrainingRun } from "./documents";
import { TRAINING_TEXT as T } from "./text";
import {
  actionsFor, activeIds, canStart, checkReason, checkTrainForm, formatCpu, formatDifference, formatDuration, formatError,
  formatInterval, formatP, formatProgress, initialTrainForm, liveMode, mergeRun, parseDecimal, parseWhole, statusChanges,
  runVersionKey, trainRequest, versionsInUse, type TrainForm,
} from "./training";

const run = (status: string, extra: Partial<TrainingRun> = {}): TrainingRun => ({
  id: `r-${status}`, status, progress: 0.5, fromRounds: [1], profile: "fast", modelName: "sentiment-m", modelVersion: "2",
  nValidated: 0, scoringTolerance: 0.01, minHeldOut: 30, includeAgreed: true, cancelRequested: false, overrideReason: "", overriddenAt: null,
  overriddenBy: null, wallSeconds: 12, cpuSeconds: 30, createdAt: "2026-11-28T10:00:00Z", statusLog: [], trainingData: null,
  gate: null, sourceModelId: null, newModelId: null, ...extra,
});

const form = (patch: Partial<TrainForm> = {}): TrainForm => ({
  rounds: [1], profile: "FAST", tolerance: "0.01", minHeldOut: "30", includeAgreed: true, ...patch,
});

afterEach(() => activateCatalog("en", null));

describe("the retraining form", () => {
  it("reads decimals with a point or a comma, and whole numbers", () => {
    expect(parseDecimal("0.02")).toBe(0.02);
    expect(parseDecimal(" 0,5 ")).toBe(0.5);
    expect(parseDecimal(".25")).toBe(0.25);
    expect(parseDecimal("1")).toBe(1);
    for (const bad of ["", "-0.1", "1e-3", "abc", "0.1.2", "NaN"]) expect(parseDecimal(bad)).toBeNull();
    expect(parseWhole(" 30 ")).toBe(30);
    for (const bad of ["3.5", "-1", "", "x"]) expect(parseWhole(bad)).toBeNull();
  });

  it("checks the server's ranges: tolerance 0 to 1, 1 to 100,000 held-out examples, known rounds, at most 50", () => {
    expect(checkTrainForm(form(), [1, 2])).toEqual({});
    expect(checkTrainForm(form({ rounds: [] }), [1])).toEqual({});
    expect(checkTrainForm(form({ tolerance: "0" }), [1])).toEqual({});
    expect(checkTrainForm(form({ tolerance: "1" }), [1])).toEqual({});
    expect(checkTrainForm(form({ tolerance: "1.01" }), [1])).toEqual({ scoringTolerance: "tolerance" });
    expect(checkTrainForm(form({ tolerance: "" }), [1])).toEqual({ scoringTolerance: "tolerance" });
    expect(checkTrainForm(form({ minHeldOut: "0" }), [1])).toEqual({ minHeldOut: "minHeldOut" });
    expect(checkTrainForm(form({ minHeldOut: "100000" }), [1])).toEqual({});
    expect(checkTrainForm(form({ minHeldOut: "100001" }), [1])).toEqual({ minHeldOut: "minHeldOut" });
    expect(checkTrainForm(form({ minHeldOut: "2.5" }), [1])).toEqual({ minHeldOut: "minHeldOut" });
    expect(checkTrainForm(form({ rounds: [3] }), [1, 2])).toEqual({ fromRounds: "unknownRound" });
    const many = Array.from({ length: 51 }, (_, i) => i + 1);
    expect(checkTrainForm(form({ rounds: many }), many)).toEqual({ fromRounds: "tooManyRounds" });
    expect(checkTrainForm(form({ profile: "SLOW" as never }), [1])).toEqual({ profile: "profile" });
  });

  it("sends the rounds once and sorted, the numbers parsed", () => {
    expect(trainRequest(form({ rounds: [3, 1, 3], tolerance: "0,05", minHeldOut: " 12" }), [1, 2, 3])).toEqual({
      fromRounds: [1, 3], profile: "FAST", scoringTolerance: 0.05, minHeldOut: 12, includeAgreed: true,
    });
    expect(trainRequest(form({ minHeldOut: "0" }), [1])).toBeNull();
  });

  it("sends whether to include the examples the model agreed with, as ticked", () => {
    expect(trainRequest(form(), [1])?.includeAgreed).toBe(true);
    expect(trainRequest(form({ includeAgreed: false }), [1])?.includeAgreed).toBe(false);
  });

  it("starts with the newest round ticked, the server's defaults and the agreed examples included", () => {
    expect(initialTrainForm([3, 2, 1])).toEqual({ rounds: [3], profile: "FULL", tolerance: "0.01", minHeldOut: "30", includeAgreed: true });
    expect(initialTrainForm([])).toEqual({ rounds: [], profile: "FULL", tolerance: "0.01", minHeldOut: "30", includeAgreed: true });
    expect(trainRequest(initialTrainForm([2, 1]), [2, 1])).toEqual({
      fromRounds: [2], profile: "FULL", scoringTolerance: 0.01, minHeldOut: 30, includeAgreed: true,
    });
  });

  it("needs an override reason of at most 500 characters", () => {
    expect(checkReason("   ")).toBe("required");
    expect(checkReason("x".repeat(500))).toBeNull();
    expect(checkReason(` ${"x".repeat(500)} `)).toBeNull();
    expect(checkReason("x".repeat(501))).toBe("tooLong");
  });
});

describe("what a run offers", () => {
  it("cancel while active (not once asked), override when rejected, open a round when published", () => {
    for (const status of ["queued", "training", "evaluating"]) expect(actionsFor(run(status))).toEqual(["cancel"]);
    expect(actionsFor(run("training", { cancelRequested: true }))).toEqual([]);
    expect(actionsFor(run("rejected"))).toEqual(["override"]);
    expect(actionsFor(run("published"))).toEqual(["openRound"]);
    expect(actionsFor(run("published"), true)).toEqual([]);
    expect(actionsFor(run("published", { modelVersion: "" }))).toEqual([]);
    for (const status of ["failed", "cancelled"]) expect(actionsFor(run(status))).toEqual([]);
  });

  it("starts only when no run is active", () => {
    expect(canStart(undefined)).toBe(true);
    expect(canStart([run("published"), run("failed")])).toBe(true);
    expect(canStart([run("published"), run("queued")])).toBe(false);
  });

  it("hides opening a round with the version the open round already uses", () => {
    const rounds = [
      { endAt: "2026-01-01T00:00:00Z", targetModels: [{ name: "m", version: "1" }] },
      { endAt: null, targetModels: [{ name: "m", version: "2" }] },
    ];
    expect([...versionsInUse(rounds)]).toEqual(["m:2"]);
  });

  it("knows a retrained upload's new model in the open round by its id", () => {
    const rounds = [{ endAt: null, targetModels: [{ name: "submission-9", version: "1", modelId: "TW9kZWw6OQ==" }] }];
    const inUse = versionsInUse(rounds);
    expect(inUse.has(runVersionKey(run("published", { modelVersion: "model-9", newModelId: "TW9kZWw6OQ==" })))).toBe(true);
    expect(inUse.has(runVersionKey(run("published", { modelVersion: "model-8", newModelId: "TW9kZWw6OA==" })))).toBe(false);
    expect(runVersionKey(run("published"))).toBe("sentiment-m:2");
  });
});

describe("following the runs", () => {
  it("subscribes to the active runs, polls when the live connection failed, and stops when all ended or offline", () => {
    const runs = [run("training", { id: "b" }), run("queued", { id: "a" }), run("published", { id: "c" })];
    expect(activeIds(runs)).toEqual(["a", "b"]);
    expect(liveMode(runs, false, true)).toBe("subscribe");
    expect(liveMode(runs, true, true)).toBe("poll");
    expect(liveMode(runs, false, false)).toBe("idle");
    expect(liveMode([run("rejected"), run("cancelled")], true, true)).toBe("idle");
    expect(liveMode(undefined, false, true)).toBe("idle");
  });

  it("merges a run's new state, a new run on top", () => {
    const old = run("published", { id: "old", createdAt: "2026-11-27T00:00:00Z" });
    const started = run("queued", { id: "new", createdAt: "2026-11-28T00:00:00Z" });
    expect(mergeRun([old], started).map((r) => r.id)).toEqual(["new", "old"]);
    expect(mergeRun([started, old], { ...started, status: "training" })[0].status).toBe("training");
    expect(mergeRun(undefined, old)).toEqual([old]);
  });

  it("finds status changes, not progress steps", () => {
    const before = [run("training", { id: "a", progress: 0.2 })];
    expect(statusChanges(before, [run("training", { id: "a", progress: 0.6 })])).toEqual([]);
    expect(statusChanges(before, [run("evaluating", { id: "a" })])).toEqual([["a", "evaluating"]]);
    expect(statusChanges(undefined, before)).toEqual([]);
  });
});

describe("numbers", () => {
  it("formats errors, signed differences and the 95% interval", () => {
    expect(formatError(0.125)).toBe("12.5%");
    expect(formatError(null)).toBe("—");
    expect(formatDifference(0.025)).toBe("+2.5%");
    expect(formatDifference(-0.01)).toBe("-1.0%");
    expect(formatDifference(-0.00001)).toBe("0.0%");
    expect(formatInterval(-0.01, 0.034)).toEqual(["-1.0%", "+3.4%"]);
    expect(formatInterval(null, 0.1)).toBeNull();
  });

  it("formats p-values and progress", () => {
    expect(formatP(0.0312)).toBe("0.031");
    expect(formatP(1)).toBe("1.000");
    expect(formatP(0.00004)).toBe("< 0.001");
    expect(formatP(null)).toBe("—");
    expect(formatProgress(0.426)).toBe("43%");
    expect(formatProgress(1.2)).toBe("100%");
  });

  it("formats the cost: wall time in units, CPU seconds", () => {
    expect(formatDuration(4.26)).toBe("4.3 sec");
    expect(formatDuration(45)).toBe("45 sec");
    expect(formatDuration(125)).toBe("2 min 5 sec");
    expect(formatDuration(120)).toBe("2 min");
    expect(formatDuration(3780)).toBe("1 hr 3 min");
    expect(formatCpu(31.25)).toBe("31.3");
    expect(formatCpu(1234.5)).toBe("1,235");
  });

  it("says how many of a run's examples the model agreed with, formatted in the locale", async () => {
    expect(T.agreedCount(1234)).toBe("1,234 read with the validated ones");
    expect(T.agreedLeftOut).toBe("Left out");
    const { default: ar } = await import("../../i18n/locales/ar");
    activateCatalog("ar", ar);
    expect(T.agreedCount(1234)).toBe(`${formatNumber(1234)} قُرئت مع الأمثلة المعتمدة`);
    expect(T.includeAgreed).toBe("درّب أيضًا على الأمثلة التي وافق عليها النموذج");
  });

  it("uses the locale's digits and separators", async () => {
    const { default: fr } = await import("../../i18n/locales/fr");
    activateCatalog("fr", fr);
    expect(formatError(0.125)).toMatch(/^12,5\s%$/);
    expect(formatDifference(0.025)).toMatch(/^\+2,5\s%$/);
    expect(formatP(0.0312)).toBe("0,031");
  });
});
