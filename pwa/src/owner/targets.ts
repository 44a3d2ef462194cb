/**
 * The round target picker's pure part: what the target Triton serves, the LLM endpoints a generative task may name and
 * the task's published submissions as one list of options (which can be chosen, and why not), and the `targetModels` a
 * round opens with for the chosen ones; and which of a round's targets is an LLM endpoint (`endpoint:<name>`).
 */
import type { LlmEndpointChoice } from "../admin/llm/documents";
import type { ServedTargets } from "./create/documents";

export type TargetInput = { name: string; version: string } | { modelId: string } | { endpoint: string };

export interface TargetOption {
  key: string; // "served:<name>", "endpoint:<name>" or "submission:<modelId>": unique in the list, kept across reloads
  source: "served" | "endpoint" | "submission";
  name: string;
  model: string | null; // an LLM endpoint's model id; null otherwise
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

/** The served models, then the LLM endpoints (`llmEndpointChoices`: enabled ones, and only for a generative task), then
 * the submissions. */
export function targetOptions(data: ServedTargets, endpoints: readonly LlmEndpointChoice[] = []): TargetOption[] {
  const served = data.targets.map((m): TargetOption => {
    const choosable = m.usable && m.ready;
    return {
      key: `served:${m.name}`,
      source: "served",
      name: m.name,
      model: null,
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
    model: null,
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
  // An endpoint is listed only while it is enabled; whether it answers is checked when the round opens (the server's
  // reason then shows under the list).
  const llms = endpoints.map((e): TargetOption => ({
    key: `endpoint:${e.name}`,
    source: "endpoint",
    name: e.name,
    model: e.model,
    version: "",
    ready: true,
    choosable: true,
    reason: null,
    shared: false,
    builtinTask: null,
    heldoutAccuracy: null,
    heldoutF1: null,
    input: { endpoint: e.name },
  }));
  return [...served, ...llms, ...submissions];
}

const ENDPOINT_PREFIX = "endpoint:";

/** The LLM endpoint a round's target names (stored as `endpoint:<name>`), or null for a served model or submission
 * (':' is never in their names). */
export function endpointOfTarget(name: string): string | null {
  return name.startsWith(ENDPOINT_PREFIX) ? name.slice(ENDPOINT_PREFIX.length) : null;
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
