/** A form state using every input field type (configs.json "typed": vitest builds it, the API test posts it). */
import { defaultState, fieldRow, type FieldRow, type FormState } from "./builder";

export function typedState(): FormState {
  const state = defaultState("classification");
  const row = (name: string, patch: Partial<FieldRow>): FieldRow => ({ ...fieldRow(name, false), ...patch });
  state.inputFields.push(
    row("why", { type: "multiline_text", showWhen: "fooled", help: "Why did it fool the model?", maxLength: "500" }),
    row("tone", { type: "single_label", choices: "calm, angry" }),
    row("topics", { type: "multi_label", choices: "films, food, sport" }),
    row("score", { type: "number", min: "0", max: "10", step: "0.5", slider: true }),
    row("mood", { type: "dropdown", choices: "happy, sad" }),
    row("stars", { type: "rating", scale: "4" }),
    row("sure", { type: "boolean", displayName: "I am sure" }),
    row("evidence", { type: "span", spanOf: "context" }),
  );
  return state;
}
