import { describe, expect, it } from "vitest";
import { buildConfig, splitList } from "../create/builder";
import {
  canRemoveOwner, controlOf, demoteHeadings, formStateOf, mergeConfig, sameJson, versionRows, visibilityChoices,
} from "./settings";
import STORED_CONFIGS from "./stored-configs.json";

/** The built-in sentiment config as the server stores it (TaskConfig.model_dump). */
const STORED = {
  kind: "classification",
  context_fields: [{ name: "context", display_name: "Prompt", placeholder: "", max_length: 5000 }],
  input_fields: [
    { name: "statement", display_name: "", placeholder: "", max_length: 1000 },
    {
      name: "tone", display_name: "", placeholder: "", max_length: 2000, type: "single_label", required: true,
      choices: [{ value: "calm", label: "Quite calm" }, { value: "angry", label: "Angry" }],
    },
  ],
  model_inputs: ["statement"],
  labels: ["negative", "positive", "neutral"],
  answer_context_field: null,
  output_fields: ["label", "probs"],
  fooling: { metric: "exact_match", threshold: 0.4 },
  performance_metric: "accuracy",
  validation: { num_matching_validations: 3, validate_non_fooling: false, rule: "matching", gold_rate: 0.0 },
  duplicates: { enabled: false, jaccard: 0.7 },
  target_selection: "random",
};

describe("the create form over a stored config", () => {
  it("shows it unchanged: building the untouched form gives the stored config back", () => {
    const state = formStateOf(STORED);
    expect(state).not.toBeNull();
    expect(mergeConfig(STORED, buildConfig(state!))).toEqual(STORED);
  });

  it("adds an input field and keeps what the form has no control for", () => {
    const state = formStateOf(STORED)!;
    state.inputFields.push({ ...state.inputFields[0], name: "why", maxLength: "300", toModel: false });
    const merged = mergeConfig(STORED, buildConfig(state));
    const fields = merged.input_fields as Record<string, unknown>[];
    expect(fields.map((f) => f.name)).toEqual(["statement", "tone", "why"]);
    expect(fields[1].required).toBe(true);
    expect(fields[1].choices).toEqual(STORED.input_fields[1].choices);
    expect(merged.model_inputs).toEqual(["statement"]);
    expect(merged.duplicates).toEqual(STORED.duplicates);
    expect(merged.validation).toEqual(STORED.validation);
  });

  it("keeps a choice's label while another choice is added", () => {
    const state = formStateOf(STORED)!;
    state.inputFields[1].choices = "calm, angry, bored";
    const tone = (mergeConfig(STORED, buildConfig(state)).input_fields as Record<string, unknown>[])[1];
    expect(tone.choices).toEqual([{ value: "calm", label: "Quite calm" }, { value: "angry", label: "Angry" }, "bored"]);
  });

  it("drops a value the form cleared and keys of another type", () => {
    const state = formStateOf(STORED)!;
    state.contextFields[0].displayName = "";
    state.inputFields[1].type = "text";
    const merged = mergeConfig(STORED, buildConfig(state));
    expect((merged.context_fields as Record<string, unknown>[])[0]).not.toHaveProperty("display_name", "Prompt");
    const tone = (merged.input_fields as Record<string, unknown>[])[1];
    expect(tone).not.toHaveProperty("choices");
    expect(tone).not.toHaveProperty("type");
  });

  it("removing a label is a real change (the server decides whether the open round allows it)", () => {
    const state = formStateOf(STORED)!;
    state.labels = "negative, positive";
    const merged = mergeConfig(STORED, buildConfig(state));
    expect(merged.labels).toEqual(splitList("negative, positive"));
    expect(sameJson(merged, STORED)).toBe(false);
  });

  it("a config the form cannot show is left to the JSON editor", () => {
    expect(formStateOf({ ...STORED, kind: "ranking" })).toBeNull();
    expect(formStateOf({ ...STORED, model_inputs: ["statement", "tone"] })).toBeNull(); // tone cannot go to the model
  });

  it("changing the kind drops the other kind's keys", () => {
    const state = formStateOf(STORED)!;
    const built = buildConfig({ ...state, kind: "extractive_qa", answerContextField: "context" });
    const merged = mergeConfig(STORED, built);
    expect(merged).not.toHaveProperty("labels");
    expect(merged.output_fields).toEqual(built.output_fields);
  });
});

describe("sameJson", () => {
  it("ignores key order, not values", () => {
    expect(sameJson({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toBe(true);
    expect(sameJson({ a: 1 }, { a: 1, b: null })).toBe(false);
    expect(sameJson([1, 2], [2, 1])).toBe(false);
  });
});

describe("versions, errors, visibility, owners", () => {
  it("lists versions newest first with the rounds using each", () => {
    const rows = versionRows(
      [{ version: 1, createdAt: "a", config: {} }, { version: 2, createdAt: "b", config: {} }],
      [{ number: 2, configVersion: 1, endAt: null }, { number: 1, configVersion: 1, endAt: "x" }],
      2,
    );
    expect(rows).toEqual([
      { version: 2, createdAt: "b", rounds: [], current: true },
      { version: 1, createdAt: "a", rounds: [1, 2], current: false },
    ]);
  });

  it("puts config errors next to the form control, or on the JSON editor while it is open", () => {
    expect(controlOf("config.labels", false)).toBe("ct-labels");
    expect(controlOf("config.input_fields.1.choices", false)).toBe("ct-input-1-choices");
    expect(controlOf("config.labels", true)).toBe("st-json");
    expect(controlOf("instructions", true)).toBe("st-instructions");
    expect(controlOf("taskCode", false)).toBeNull();
  });

  it("offers the other visibilities, none to a proposal", () => {
    expect(visibilityChoices("PUBLIC")).toEqual(["HIDDEN", "ARCHIVED"]);
    expect(visibilityChoices("ARCHIVED")).toEqual(["PUBLIC", "HIDDEN"]);
    expect(visibilityChoices("PROPOSED")).toEqual([]);
    expect(visibilityChoices("REJECTED")).toEqual([]);
  });

  it("never removes the last owner", () => {
    expect(canRemoveOwner(["a"])).toBe(false);
    expect(canRemoveOwner(["a", "b"])).toBe(true);
  });
});

describe("demoteHeadings", () => {
  it("moves every heading down, at most to h6", () => {
    expect(demoteHeadings("<h1>A</h1><h2 id=\"x\">B</h2><h5>C</h5>")).toBe("<h4>A</h4><h5 id=\"x\">B</h5><h6>C</h6>");
  });
});

// The create page's example configs as the server stores them (TaskConfig.model_dump of create/configs.json). If the
// server's defaults change, regenerate from the repository root:
// .venv/bin/python -c "import json, server.tasks.config as c; cfgs = json.load(open('pwa/src/owner/create/configs.json'));
//   json.dump({k: c.TaskConfig.model_validate(v).model_dump(mode='json') for k, v in cfgs.items()},
//   open('pwa/src/owner/settings/stored-configs.json', 'w'), indent=1)"

describe("configs as the server stores them", () => {
  for (const [name, config] of Object.entries(STORED_CONFIGS as Record<string, Record<string, unknown>>)) {
    it(`the form shows the stored ${name} config and gives it back unchanged`, () => {
      const state = formStateOf(config);
      expect(state).not.toBeNull();
      expect(sameJson(mergeConfig(config, buildConfig(state!)), config)).toBe(true);
    });
  }
});
