import { describe, expect, it } from "vitest";
import { fieldsAfterVerdict, fieldsForVote, parseFieldSpec, parseFieldSpecs, parseValidatorFields } from "./specs";
import { apiValues, displayValue, errorsFromServer, fieldProblem, firstInvalid, validateValues } from "./values";

const spec = (raw: Record<string, unknown>) => parseFieldSpec({ name: "f", ...raw })!;

describe("parsing field specs", () => {
  it("fills in defaults and keeps old configs as text fields", () => {
    const [field] = parseFieldSpecs({ input_fields: [{ name: "statement", display_name: "Statement" }] });
    expect(field).toMatchObject({
      name: "statement",
      type: "text",
      legacy: true,
      required: true,
      showWhen: "always",
      maxLength: 2000,
      choices: [],
    });
    expect(spec({ type: "text" }).legacy).toBe(false);
  });

  it("normalizes choices and defaults required by show_when", () => {
    const field = spec({ type: "single_label", show_when: "fooled", choices: ["sarcasm", { value: "negation", label: "A negation" }, "sarcasm", 3, {}] });
    expect(field.choices).toEqual([
      { value: "sarcasm", label: "Sarcasm" },
      { value: "negation", label: "A negation" },
      { value: "3", label: "3" },
    ]);
    expect(field.required).toBe(false);
    expect(spec({ show_when: "fooled", required: true }).required).toBe(true);
  });

  it("is tolerant: skips what it cannot read", () => {
    expect(parseFieldSpecs(null)).toEqual([]);
    expect(parseFieldSpecs({ input_fields: "nope" })).toEqual([]);
    const fields = parseFieldSpecs([{ name: "a", type: "bogus", scale: 99, step: -1 }, { type: "text" }, "x", { name: "a" }]);
    expect(fields).toHaveLength(1);
    expect(fields[0]).toMatchObject({ name: "a", type: "text", scale: 5, step: 1 });
  });

  it("reads validator fields and picks fields by condition", () => {
    const config = {
      input_fields: [{ name: "s" }, { name: "why", show_when: "fooled" }, { name: "hint", show_when: "not_fooled" }],
      validator_fields: [{ name: "conf", type: "rating" }, { name: "corrected_label", type: "dropdown", show_when: "incorrect", choices: ["a"] }],
    };
    const inputs = parseFieldSpecs(config);
    expect(fieldsAfterVerdict(inputs, true).map((f) => f.name)).toEqual(["why"]);
    expect(fieldsAfterVerdict(inputs, false).map((f) => f.name)).toEqual(["hint"]);
    const validators = parseValidatorFields(config);
    expect(fieldsForVote(validators, "CORRECT").map((f) => f.name)).toEqual(["conf"]);
    expect(fieldsForVote(validators, "INCORRECT").map((f) => f.name)).toEqual(["conf", "corrected_label"]);
    expect(fieldsForVote(validators, null)).toEqual([]);
  });
});

describe("validating values", () => {
  it("text: required and at most max_length code points", () => {
    const field = spec({ type: "text", max_length: 3 });
    expect(fieldProblem(field, "")).toMatch(/Fill/);
    expect(fieldProblem(field, "   ")).toMatch(/Fill/);
    expect(fieldProblem(field, "😀😀😀")).toBeNull();
    expect(fieldProblem(field, "abcd")).toMatch(/At most 3/);
    expect(fieldProblem(spec({ type: "multiline_text", required: false }), undefined)).toBeNull();
  });

  it("single_label and dropdown: a known choice", () => {
    for (const type of ["single_label", "dropdown"]) {
      const field = spec({ type, choices: ["a", "b"] });
      expect(fieldProblem(field, "a")).toBeNull();
      expect(fieldProblem(field, "c")).toMatch(/options/);
      expect(fieldProblem(field, undefined)).toMatch(/Choose one/);
    }
  });

  it("multi_label: known choices, min and max selected", () => {
    const field = spec({ type: "multi_label", choices: ["a", "b", "c"], min_selected: 1, max_selected: 2 });
    expect(fieldProblem(field, ["a"])).toBeNull();
    expect(fieldProblem(field, [])).toMatch(/at least 1/);
    expect(fieldProblem(field, ["a", "b", "c"])).toMatch(/at most 2/);
    expect(fieldProblem(field, ["z"])).toMatch(/options/);
    const optional = spec({ type: "multi_label", choices: ["a"], required: false });
    expect(fieldProblem(optional, [])).toBeNull();
    expect(fieldProblem(optional, undefined)).toBeNull();
  });

  it("number: a number within [min, max] on the step grid", () => {
    const field = spec({ type: "number", min: 0, max: 1, step: 0.1 });
    expect(fieldProblem(field, 0.3)).toBeNull();
    expect(fieldProblem(field, "0.7")).toBeNull();
    expect(fieldProblem(field, 1.5)).toMatch(/At most 1/);
    expect(fieldProblem(field, -1)).toMatch(/At least 0/);
    expect(fieldProblem(field, 0.35)).toMatch(/steps of 0.1/);
    expect(fieldProblem(field, "abc")).toMatch(/number/);
    expect(fieldProblem(field, undefined)).toMatch(/Fill/);
  });

  it("rating: an integer 1..scale", () => {
    const field = spec({ type: "rating", scale: 4 });
    expect(fieldProblem(field, 4)).toBeNull();
    expect(fieldProblem(field, 5)).toMatch(/1 to 4/);
    expect(fieldProblem(field, 2.5)).toMatch(/1 to 4/);
  });

  it("boolean: unticked counts as an answer", () => {
    const field = spec({ type: "boolean" });
    expect(validateValues([field], {})).toEqual({});
    expect(fieldProblem(field, true)).toBeNull();
  });

  it("span: inside the span_of context text", () => {
    const field = spec({ type: "span", span_of: "passage" });
    const contexts = { passage: "Paris is nice" };
    expect(fieldProblem(field, { start: 0, end: 5 }, contexts)).toBeNull();
    expect(fieldProblem(field, { start: 5, end: 50 }, contexts)).toMatch(/not inside/);
    expect(fieldProblem(field, "London", contexts)).toMatch(/Select/);
    expect(fieldProblem(field, undefined, contexts)).toMatch(/Select/);
    expect(fieldProblem(field, { start: 0, end: 5 }, {})).toMatch(/not available/);
  });

  it("names the problems by field, the first one in order", () => {
    const fields = parseFieldSpecs([{ name: "a" }, { name: "b", type: "rating" }, { name: "c", required: false }]);
    const errors = validateValues(fields, { b: 9 });
    expect(Object.keys(errors)).toEqual(["a", "b"]);
    expect(firstInvalid(fields, errors)).toBe("a");
    expect(firstInvalid(fields, {})).toBeNull();
  });
});

describe("values for the API", () => {
  it("drops empty optional fields, converts numbers and spans", () => {
    const fields = parseFieldSpecs([
      { name: "t" },
      { name: "o", required: false },
      { name: "n", type: "number", min: 0, max: 10 },
      { name: "b", type: "boolean" },
      { name: "m", type: "multi_label", choices: ["x", "y"] },
      { name: "s", type: "span", span_of: "p" },
    ]);
    const contexts = { p: "😀 Paris" };
    const values = { t: "hi", o: "  ", n: "4", m: ["y", "y"], s: { start: 3, end: 8 } };
    expect(apiValues(fields, values, contexts)).toEqual({ t: "hi", n: 4, b: false, m: ["y"], s: { start: 2, end: 7 } });
    expect(apiValues(fields, { ...values, m: [] }, contexts)).not.toHaveProperty("m");
  });

  it("maps server field paths to fields", () => {
    const fields = parseFieldSpecs([{ name: "why" }, { name: "stance" }]);
    const errors = errorsFromServer(fields, [
      { field: "input.fields.why", message: "Too long." },
      { field: "fields.stance.0", message: "Unknown choice." },
      { field: "label", message: "Choose." },
    ]);
    expect(errors).toEqual({ why: "Too long.", stance: "Unknown choice." });
  });
});

describe("showing stored values", () => {
  it("uses choice labels, ratings out of the scale, yes/no and span text", () => {
    expect(displayValue(spec({ type: "dropdown", choices: [{ value: "a", label: "Alpha" }] }), "a")).toBe("Alpha");
    expect(displayValue(spec({ type: "multi_label", choices: ["x_y", "z"] }), ["x_y", "z"])).toBe("X y, Z");
    expect(displayValue(spec({ type: "rating", scale: 5 }), 3)).toBe("3 of 5");
    expect(displayValue(spec({ type: "boolean" }), false)).toBe("No");
    expect(displayValue(spec({ type: "span", span_of: "p" }), { start: 0, end: 5, text: "Paris" })).toBe("Paris");
    expect(displayValue(spec({ type: "text" }), undefined)).toBe("");
    expect(displayValue(spec({ type: "number" }), 4)).toBe("4");
  });
});
