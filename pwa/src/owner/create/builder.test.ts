// The task creation form's pure logic: the config it builds (the same documents tests/api/test_served_models.py
// posts to the server, from configs.json), the way back from JSON, error paths → controls, JSON syntax errors.
import { describe, expect, it } from "vitest";
import {
  buildConfig, chosenRating, clientProblems, controlFor, defaultState, fieldRow, FOOLING, jsonProblem, ratingChoices, stateFromConfig,
  withKind,
} from "./builder";
import CONFIGS from "./configs.json";
import { generativeState, ratedGenerativeState, typedState } from "./typed";

describe("buildConfig", () => {
  it("builds the documents the server accepts (configs.json, posted by the API test) for every kind", () => {
    expect(buildConfig(defaultState("classification"))).toEqual(CONFIGS.classification);
    expect(buildConfig(defaultState("extractive_qa"))).toEqual(CONFIGS.extractive_qa);
    expect(buildConfig(typedState())).toEqual(CONFIGS.typed); // every input field type
  });

  it("sends only text fields asked always to the model", () => {
    const state = typedState();
    for (const row of state.inputFields) row.toModel = true;
    expect(buildConfig(state).model_inputs).toEqual(["statement", "why"].slice(0, 1));
    state.inputFields[1].showWhen = "always";
    expect(buildConfig(state).model_inputs).toEqual(["statement", "why"]);
  });

  it("checks number ranges, choices and spans before the round trip", () => {
    const state = typedState();
    state.inputFields[4].max = "0";
    state.inputFields[3].choices = "";
    state.inputFields[8].spanOf = "nowhere";
    expect(clientProblems("t_x", "T", state).map((p) => p.field)).toEqual([
      "config.input_fields.3.choices", "config.input_fields.4.max", "config.input_fields.8.span_of",
    ]);
    expect(clientProblems("t_x", "T", typedState())).toEqual([]);
  });

  it("writes a field's type, choices and help only when they say something", () => {
    const state = defaultState();
    state.inputFields.push({ ...fieldRow("topic", false), type: "dropdown", choices: "food, films ,\nsport", help: " Pick one. " });
    state.inputFields.push({ ...fieldRow("why", false), type: "multiline_text", choices: "ignored" });
    const config = buildConfig(state);
    expect(config.input_fields).toEqual([
      { name: "statement", max_length: 1000 },
      { name: "topic", type: "dropdown", choices: ["food", "films", "sport"], help: "Pick one." },
      { name: "why", type: "multiline_text" },
    ]);
    expect(config.model_inputs).toEqual(["statement"]);
  });

  it("follows a change of kind: metrics, labels and the answer field", () => {
    const qa = buildConfig(withKind(defaultState("classification"), "extractive_qa"));
    expect(qa).toMatchObject({ kind: "extractive_qa", performance_metric: "squad_f1", answer_context_field: "context" });
    expect(qa).not.toHaveProperty("labels");
    expect(qa.fooling).toEqual({ metric: "string_f1", threshold: 0.4 });
    const back = buildConfig(withKind(withKind(defaultState(), "extractive_qa"), "classification"));
    expect(back).toMatchObject({ performance_metric: "accuracy", fooling: { metric: "exact_match" } });
    expect(back.labels).toEqual(["negative", "positive", "neutral"]);
    expect(back).not.toHaveProperty("answer_context_field");
  });

  it("keeps the votes as a whole number and unknown settings as they were", () => {
    const state = stateFromConfig({ ...CONFIGS.classification, duplicates: { enabled: true }, validation: { gold_rate: 0.1 } })!;
    state.votes = "2.4";
    const config = buildConfig(state);
    expect(config.duplicates).toEqual({ enabled: true });
    expect(config.validation).toEqual({ gold_rate: 0.1, num_matching_validations: 2 });
  });
});

describe("stateFromConfig", () => {
  it("round-trips what the form builds", () => {
    for (const config of [CONFIGS.classification, CONFIGS.extractive_qa, CONFIGS.typed, CONFIGS.generative, CONFIGS.generative_judged, CONFIGS.generative_rated]) {
      const state = stateFromConfig(config);
      expect(state).not.toBeNull();
      expect(buildConfig(state!)).toEqual(config);
    }
  });

  it("reads typed fields and object choices", () => {
    const state = stateFromConfig({
      ...CONFIGS.classification,
      input_fields: [{ name: "statement" }, { name: "tone", type: "single_label", choices: [{ value: "calm", label: "Calm" }, "angry"] }],
    })!;
    expect(state.inputFields[1]).toMatchObject({ name: "tone", type: "single_label", choices: "calm, angry", toModel: false });
  });

  it("gives up on what the form cannot show", () => {
    expect(stateFromConfig(null)).toBeNull();
    expect(stateFromConfig([])).toBeNull();
    expect(stateFromConfig({ ...CONFIGS.classification, kind: "regression" })).toBeNull();
    expect(stateFromConfig({ ...CONFIGS.classification, input_fields: "statement" })).toBeNull();
    expect(stateFromConfig({ ...CONFIGS.classification, input_fields: [{ display_name: "no name" }] })).toBeNull();
  });
});

describe("generative tasks", () => {
  it("builds the documents the server accepts, judged by the author or by a judge model", () => {
    expect(buildConfig(generativeState())).toEqual(CONFIGS.generative);
    expect(buildConfig(generativeState(true))).toEqual(CONFIGS.generative_judged);
  });

  it("writes max_turns in chat mode only and the judge only under judge_model", () => {
    const prompt = generativeState(true);
    prompt.generative = { ...prompt.generative!, mode: "prompt" };
    prompt.foolingMetric = "ask_user";
    const block = buildConfig(prompt).generative as Record<string, unknown>;
    expect(block.mode).toBe("prompt");
    expect(block).not.toHaveProperty("max_turns");
    expect(block).not.toHaveProperty("judge");
  });

  it("sends context fields only to the model and has no labels", () => {
    const state = generativeState();
    state.inputFields.push({ ...fieldRow("severity", true), type: "rating", scale: "5" });
    const config = buildConfig(state);
    expect(config.model_inputs).toEqual(["scenario"]);
    expect(config.input_fields).toEqual([{ name: "severity", type: "rating", scale: 5 }]);
    expect(config).not.toHaveProperty("labels");
    expect(config).not.toHaveProperty("answer_context_field");
  });

  it("keeps the block's settings the form has no control for (stop strings, message length, the judge's input)", () => {
    const stored = {
      ...CONFIGS.generative_judged,
      generative: { ...CONFIGS.generative_judged.generative, stop: ["\nUser:"], max_message_length: 500, judge: { ...CONFIGS.generative_judged.generative.judge, input: "text" } },
    };
    const state = stateFromConfig(stored)!;
    expect(state.generative).toMatchObject({ goal: "Make the model state a false fact.", judgeModel: "sentiment_judge", judgeThreshold: "0.8" });
    expect(buildConfig(state)).toEqual(stored);
    // a config without input fields (the server's default) reads too
    const { input_fields: _none, ...bare } = CONFIGS.generative;
    expect(stateFromConfig(bare)?.inputFields).toEqual([]);
  });

  it("switching to generative drops the input fields and shows the context to the model; switching back restores one", () => {
    const state = withKind(defaultState("classification"), "generative");
    expect(state.inputFields).toEqual([]);
    expect(state.contextFields).toEqual(defaultState("generative").contextFields); // untouched defaults: a scenario
    const edited = defaultState("classification");
    edited.contextFields[0].displayName = "Topic";
    expect(withKind(edited, "generative").contextFields).toEqual([{ ...edited.contextFields[0], toModel: true }]);
    expect(buildConfig(state)).toMatchObject({ output_fields: ["text_output"], performance_metric: "token_f1", fooling: { metric: "ask_user" } });
    const back = withKind(state, "classification");
    expect(back.inputFields.map((r) => r.name)).toEqual(["statement"]);
    expect(back.contextFields).toEqual(defaultState("classification").contextFields);
    expect(buildConfig(back)).not.toHaveProperty("generative");
  });

  it("asks for the goal and, under judge_model, the judge's model and label before the round trip", () => {
    const state = withKind(defaultState(), "generative");
    expect(clientProblems("red", "Red", state).map((p) => p.field)).toEqual(["config.generative.goal"]);
    state.foolingMetric = "judge_model";
    expect(clientProblems("red", "Red", state).map((p) => p.field)).toEqual([
      "config.generative.goal", "config.generative.judge.model", "config.generative.judge.label",
    ]);
    expect(clientProblems("red", "Red", generativeState(true))).toEqual([]);
  });

  it("offers validator_rating for generative tasks only", () => {
    expect(FOOLING.generative).toEqual(["ask_user", "judge_model", "validator_rating"]);
    expect(FOOLING.classification).not.toContain("validator_rating");
  });

  it("validator_rating writes generative.rating and, with no rating field to choose, adds a 1–5 one", () => {
    const config = buildConfig(ratedGenerativeState());
    expect(config).toEqual(CONFIGS.generative_rated);
    expect(config.fooling).toEqual({ metric: "validator_rating" });
    expect((config.generative as Record<string, unknown>).rating).toEqual({ field: "severity", threshold: 4 });
    expect(config.validator_fields).toEqual([expect.objectContaining({ name: "severity", type: "rating", scale: 5 })]);
    // Another metric writes no rule and adds no field.
    const asked = { ...ratedGenerativeState(), foolingMetric: "ask_user" };
    expect(buildConfig(asked).generative).not.toHaveProperty("rating");
    expect(buildConfig(asked)).not.toHaveProperty("validator_fields");
  });

  it("offers the task's rating and number validator fields every vote answers, and writes the chosen one", () => {
    const state = ratedGenerativeState();
    state.extra = {
      validator_fields: [
        { name: "harm", type: "rating", scale: 7, display_name: "Harm" },
        { name: "score", type: "number", min: 0, max: 10 },
        { name: "later", type: "rating", show_when: "flagged" }, // not on every vote
        { name: "optional", type: "number", min: 0, max: 1, required: false },
        { name: "why", type: "text" },
      ],
    };
    expect(ratingChoices(state).map((c) => [c.name, c.low, c.high, c.isNew])).toEqual([
      ["harm", 1, 7, false], ["score", 0, 10, false], ["severity", 1, 5, true],
    ]);
    expect(chosenRating(state)?.name).toBe("harm"); // nothing chosen yet: the first
    state.generative = { ...state.generative!, ratingField: "score", ratingThreshold: "7.5" };
    const config = buildConfig(state);
    expect((config.generative as Record<string, unknown>).rating).toEqual({ field: "score", threshold: 7.5 });
    expect(config.validator_fields).toEqual(state.extra.validator_fields); // unchanged: no field added
    // A task that already has a field named like the new one is not offered a second one.
    state.extra = { validator_fields: [{ name: "severity", type: "text" }] };
    expect(ratingChoices(state)).toEqual([]);
    expect(chosenRating(state)).toBeNull();
  });

  it("reads the rating rule back, keeping what the form has no control for", () => {
    const stored = { ...CONFIGS.generative_rated, generative: { ...CONFIGS.generative_rated.generative, rating: { field: "severity", threshold: 3, note: "kept" } } };
    const state = stateFromConfig(stored)!;
    expect(state.foolingMetric).toBe("validator_rating");
    expect(state.generative).toMatchObject({ ratingField: "severity", ratingThreshold: "3" });
    expect(buildConfig(state)).toEqual(stored); // the field exists now: not added twice
  });

  it("checks the rating threshold against the field's range before the round trip", () => {
    const state = ratedGenerativeState();
    expect(clientProblems("red", "Red", state)).toEqual([]);
    for (const [threshold, problem] of [["", "Give the failure threshold as a number."], ["1", "Must be above 1 and at most 5."], ["6", "Must be above 1 and at most 5."]]) {
      state.generative = { ...state.generative!, ratingThreshold: threshold };
      expect(clientProblems("red", "Red", state)).toEqual([{ field: "config.generative.rating.threshold", message: problem }]);
    }
    state.generative = { ...state.generative!, ratingThreshold: "5" };
    expect(clientProblems("red", "Red", state)).toEqual([]);
  });

  it.each([
    ["config.generative", "ct-gen-goal"],
    ["config.generative.goal", "ct-gen-goal"],
    ["config.generative.max_turns", "ct-gen-turns"],
    ["config.generative.attack_categories", "ct-gen-categories"],
    ["config.generative.temperature", "ct-gen-temperature"],
    ["config.generative.judge", "ct-gen-judge-model"],
    ["config.generative.judge.label", "ct-gen-judge-label"],
    ["config.generative.judge.threshold", "ct-gen-judge-threshold"],
    ["config.generative.rating", "ct-gen-rating-field"],
    ["config.generative.rating.field", "ct-gen-rating-field"],
    ["config.generative.rating.threshold", "ct-gen-rating-threshold"],
  ])("the server's %s → %s", (path, id) => expect(controlFor(path)).toBe(id));
});

describe("jsonProblem", () => {
  it("is null for valid JSON", () => expect(jsonProblem('{"a": 1}')).toBeNull());

  it("names the line of a syntax error", () => {
    const problem = jsonProblem('{\n  "kind": "classification",\n  "labels": [\n}');
    expect(problem).not.toBeNull();
    expect(problem!.line).toBe(4);
    expect(jsonProblem('{\n  "a": 1,\n  "b": 2\n')!.line).toBeGreaterThanOrEqual(3);
  });
});

describe("controlFor", () => {
  it.each([
    ["code", "ct-code"],
    ["name", "ct-name"],
    ["instructions", "ct-instructions"],
    ["config.labels", "ct-labels"],
    ["config.labels.2", "ct-labels"],
    ["config.input_fields.0.name", "ct-input-0-name"],
    ["config.input_fields.3.max_length", "ct-input-3-maxlength"],
    ["config.input_fields.2.max", "ct-input-2-max"],
    ["config.input_fields.2.show_when", "ct-input-2-when"],
    ["config.input_fields.1.span_of", "ct-input-1-spanof"],
    ["config.input_fields.1.choices", "ct-input-1-choices"],
    ["config.input_fields.1", "ct-input-1-name"],
    ["config.context_fields.0.display_name", "ct-context-0-display"],
    ["config.answer_context_field", "ct-answer-field"],
    ["config.fooling.metric", "ct-fooling"],
    ["config.fooling.threshold", "ct-threshold"],
    ["config.performance_metric", "ct-metric"],
    ["config.validation.num_matching_validations", "ct-votes"],
    ["config.model_inputs.0", "ct-input-0-model"],
    ["targetModels.0.name", "ct-target"],
  ])("%s → %s", (path, id) => expect(controlFor(path)).toBe(id));

  it("is null for paths without a control", () => {
    expect(controlFor("config")).toBeNull();
    expect(controlFor("config.dynascore.weights")).toBeNull();
    expect(controlFor("roundId")).toBeNull();
  });
});

describe("clientProblems", () => {
  it("accepts the default form with a code and a name", () => {
    expect(clientProblems("my_task", "My task", defaultState())).toEqual([]);
  });

  it("names each problem by its server path", () => {
    const state = defaultState();
    state.inputFields[0].name = "Bad Name";
    state.inputFields.push({ ...fieldRow("tone", false), type: "dropdown", choices: "one" });
    state.labels = "only";
    expect(clientProblems(" ", "", state).map((p) => p.field)).toEqual([
      "code", "name", "config.input_fields.0.name", "config.input_fields.1.choices", "config.labels",
    ]);
    expect(clientProblems("9lives", "x", defaultState("extractive_qa")).map((p) => p.field)).toEqual(["code"]);
    expect(clientProblems("", "", null).map((p) => p.field)).toEqual(["code", "name"]); // JSON: the server checks it
  });
});

describe("private leaderboard", () => {
  it("is written only when it says something, and reads back", () => {
    const plain = buildConfig(defaultState("classification"));
    expect("dynascore" in plain).toBe(false); // a config without the choice reads as before
    const hidden = buildConfig({ ...defaultState("classification"), leaderboardPrivate: true });
    expect(hidden.dynascore).toEqual({ leaderboard: "private" });
    expect(stateFromConfig(hidden)?.leaderboardPrivate).toBe(true);
  });
  it("keeps the other Dynascore settings and turns a stored choice back to public", () => {
    const stored = { ...buildConfig(defaultState("classification")), dynascore: { weights: { perf: 2 }, leaderboard: "private" } };
    const state = stateFromConfig(stored)!;
    expect(buildConfig(state).dynascore).toEqual({ weights: { perf: 2 }, leaderboard: "private" });
    expect(buildConfig({ ...state, leaderboardPrivate: false }).dynascore).toEqual({ weights: { perf: 2 }, leaderboard: "public" });
  });
});

describe("a deleted account's work", () => {
  it("is written only when the task removes it, and reads back", () => {
    const plain = buildConfig(defaultState("classification"));
    expect("personal_data" in plain).toBe(false); // a config that keeps it reads as before
    const removing = buildConfig({ ...defaultState("classification"), removeWorkOnDeletion: true });
    expect(removing.personal_data).toEqual({ on_account_deletion: "remove" });
    expect(stateFromConfig(removing)?.removeWorkOnDeletion).toBe(true);
  });
  it("turns a stored choice back to keep", () => {
    const state = stateFromConfig({ ...buildConfig(defaultState("classification")), personal_data: { on_account_deletion: "remove" } })!;
    expect(buildConfig({ ...state, removeWorkOnDeletion: false }).personal_data).toEqual({ on_account_deletion: "keep" });
  });
});
