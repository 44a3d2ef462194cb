/** Form states the builder test builds into configs.json (vitest checks them; API and browser tests post them). */
import { defaultState, fieldRow, type FieldRow, type FormState } from "./builder";

/** A form state using every input field type (configs.json "typed"). */
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

/** A generative task's form state as an owner fills it in (configs.json "generative", and "generative_judged" with a
 * judge deciding): the server accepts both as they are. */
export function generativeState(judged = false): FormState {
  const state = defaultState("generative");
  state.generative = {
    ...state.generative!,
    goal: "Make the model state a false fact.",
    systemPrompt: "You are a helpful assistant.",
    categories: "false_fact, insult",
    maxTurns: "3",
    maxTokens: "24",
    temperature: "0",
  };
  if (judged) {
    state.foolingMetric = "judge_model";
    state.generative = { ...state.generative!, judgeModel: "sentiment_judge", judgeLabel: "negative", judgeThreshold: "0.8" };
  }
  return state;
}

/** A generative task whose validators' ratings decide (configs.json "generative_rated"): the form adds the 1–5
 * "severity" rating validators answer on every vote, and a vote of 4 or more says the model failed. */
export function ratedGenerativeState(): FormState {
  const state = generativeState();
  state.foolingMetric = "validator_rating";
  state.generative = { ...state.generative!, ratingThreshold: "4" };
  return state;
}
