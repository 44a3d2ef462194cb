/**
 * The round target picker's pure part: what the target Triton serves and the task's published submissions as one list
 * of options (which can be chosen, and why not), and the `targetModels` a round opens with for the chosen ones.
 */
import type { ServedTargets } from "./create/documents";

export type TargetInput = { name: string; version: string } | { modelId: string };

export interface TargetOption {
  key: string; // "served:<name>" or "submission:<modelId>": unique in the list, kept across reloads
  source: "served" | "submission";
  name: string;
  version: string; // the newest ready version of a served model; "" for a submission
  ready: boolean;
  choosable: boolean;
  reason: string | null; // why it cannot be chosen (the server's words), null when it can
  shared: boolean;
  builtinTask: string | null;
  heldoutAccuracy: number | null;
  heldoutF1: number | null;
  input: TargetInput;
}

/**
 * servedTargetModels' `kind` filter for a task kind. Generative targets (text in, text streamed out) follow neither
 * classifier contract, so they are asked for unfiltered and picked out by `servedFor`.
 */
export function servedKind(kind: string): string | null {
  return kind === "generative" ? null : kind;
}

/** The served models a task of this kind can use (a generative task: those whose outputs follow no classifier contract). */
export function servedFor<T extends { kind: string | null }>(models: T[], kind: string): T[] {
  return kind === "generative" ? models.filter((m) => m.kind === null || m.kind === "generative") : models;
}

export function targetOptions(data: ServedTargets): TargetOption[] {
  const served = data.targets.map((m): TargetOption => {
    const choosable = m.usable && m.ready;
    return {
      key: `served:${m.name}`,
      source: "served",
      name: m.name,
      version: m.versions[0] ?? "",
      ready: m.ready,
      choosable,
      reason: choosable ? null : m.unusableReason,
      shared: m.shared,
      builtinTask: m.builtinTask,
      heldoutAccuracy: m.heldoutAccuracy,
      heldoutF1: m.heldoutF1,
      input: { name: m.name, version: m.versions[0] ?? "" },
    };
  });
  // A published submission judges the task's rounds from the sandboxed submissions Triton, which loads an idle one
  // again on use: it can always be chosen.
  const submissions = data.submissions.map((s): TargetOption => ({
    key: `submission:${s.modelId}`,
    source: "submission",
    name: s.name,
    version: "",
    ready: s.readiness.ready,
    choosable: true,
    reason: null,
    shared: false,
    builtinTask: null,
    heldoutAccuracy: null,
    heldoutF1: null,
    input: { modelId: s.modelId },
  }));
  return [...served, ...submissions];
}

/** Whether anything in the list can be chosen (else the picker says what the owner can do instead). */
export function anyChoosable(options: TargetOption[]): boolean {
  return options.some((o) => o.choosable);
}

/** The chosen keys that are still choosable after the list was read again. */
export function keepChosen(options: TargetOption[], chosen: readonly string[]): string[] {
  const choosable = new Set(options.filter((o) => o.choosable).map((o) => o.key));
  return chosen.filter((key) => choosable.has(key));
}

/** createRound's `targetModels` for the chosen options, in the list's order. */
export function chosenTargets(options: TargetOption[], chosen: readonly string[]): TargetInput[] {
  const keys = new Set(keepChosen(options, chosen));
  return options.filter((o) => keys.has(o.key)).map((o) => o.input);
}
