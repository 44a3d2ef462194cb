/**
 * What a task offers for suggestions, read from its config (docs/task-config.md, "suggestions"): tiny and pure, in the
 * pages' own chunks; the panels themselves load on demand (suggest/lazy.ts).
 */
import type { TaskConfig } from "../api/types";

export interface Offered {
  generator: boolean;
  perturbation: boolean;
  /** The input field a suggestion fills (the first written field the model reads); "message" on a generative task. */
  field: string | null;
}

export function offeredSuggestions(config: TaskConfig): Offered {
  const block = (config.suggestions ?? null) as { generator?: unknown; perturbation?: unknown } | null;
  const generator = Boolean(block?.generator);
  const perturbation = config.kind === "classification" && block?.perturbation === true;
  if (config.kind === "generative") return { generator, perturbation: false, field: "message" };
  const written = new Set(config.input_fields.map((f) => f.name));
  const inputs = Array.isArray(config.model_inputs) ? (config.model_inputs as unknown[]) : [];
  const field = (inputs.find((name) => typeof name === "string" && written.has(name)) as string | undefined) ?? null;
  return { generator, perturbation, field };
}

export const anyOffered = (offered: Offered) => (offered.generator || offered.perturbation) && offered.field !== null;
