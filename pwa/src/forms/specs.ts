/**
 * Annotation form field specs (a task config's `input_fields` and `validator_fields`), read tolerantly:
 * whatever can be understood is returned, normalized, with defaults filled in (see docs/task-config.md).
 * Pure functions.
 */

export const FIELD_TYPES = [
  "text",
  "multiline_text",
  "single_label",
  "multi_label",
  "number",
  "dropdown",
  "rating",
  "boolean",
  "span",
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** When a field is asked: always; after the model's verdict (input fields); by the validator's vote (validator fields). */
export type ShowWhen = "always" | "fooled" | "not_fooled" | "correct" | "incorrect" | "flagged";
const SHOW_WHEN: readonly ShowWhen[] = ["always", "fooled", "not_fooled", "correct", "incorrect", "flagged"];

export interface Choice {
  value: string;
  label: string;
}

/** One form field, normalized. */
export interface FieldSpec {
  name: string;
  type: FieldType;
  /** The display name ("" → the humanized name; use `fieldTitle`). */
  displayName: string;
  placeholder: string;
  help: string;
  required: boolean;
  showWhen: ShowWhen;
  /** text, multiline_text. */
  maxLength: number;
  /** single_label, multi_label, dropdown. */
  choices: Choice[];
  /** multi_label. */
  minSelected: number;
  maxSelected: number | null;
  /** number. */
  min: number | null;
  max: number | null;
  step: number;
  widget: "input" | "slider";
  /** rating: values 1..scale. */
  scale: number;
  /** span: the context field the span is selected in. */
  spanOf: string | null;
  /** The config gave no `type` (configs older than the form components): a text field shown as before. */
  legacy: boolean;
}

export const DEFAULT_MAX_LENGTH = 2000;

export function humanize(name: string): string {
  const words = name.replace(/_/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function fieldTitle(spec: Pick<FieldSpec, "name" | "displayName">): string {
  return spec.displayName.trim() || humanize(spec.name);
}

type Obj = Record<string, unknown>;
const isObj = (value: unknown): value is Obj => typeof value === "object" && value !== null && !Array.isArray(value);
const str = (value: unknown, fallback = ""): string => (typeof value === "string" ? value : fallback);
const num = (value: unknown): number | null => (typeof value === "number" && Number.isFinite(value) ? value : null);

function parseChoices(raw: unknown): Choice[] {
  if (!Array.isArray(raw)) return [];
  const seen = new Set<string>();
  const out: Choice[] = [];
  for (const item of raw) {
    let choice: Choice | null = null;
    if (typeof item === "string" && item.trim()) choice = { value: item, label: humanize(item) };
    else if (typeof item === "number") choice = { value: String(item), label: String(item) };
    else if (isObj(item) && (typeof item.value === "string" || typeof item.value === "number")) {
      const value = String(item.value);
      choice = { value, label: str(item.label).trim() || humanize(value) };
    }
    if (choice && choice.value.trim() && !seen.has(choice.value)) {
      seen.add(choice.value);
      out.push(choice);
    }
  }
  return out;
}

/** One spec, or null when it has no usable name. */
export function parseFieldSpec(raw: unknown): FieldSpec | null {
  if (!isObj(raw)) return null;
  const name = str(raw.name).trim();
  if (!name) return null;
  const type = (FIELD_TYPES as readonly string[]).includes(raw.type as string) ? (raw.type as FieldType) : "text";
  const showWhen = SHOW_WHEN.includes(raw.show_when as ShowWhen) ? (raw.show_when as ShowWhen) : "always";
  const required = typeof raw.required === "boolean" ? raw.required : showWhen === "always";
  const maxLength = num(raw.max_length);
  const step = num(raw.step);
  const scale = num(raw.scale);
  const minSelected = num(raw.min_selected);
  const maxSelected = num(raw.max_selected);
  return {
    name,
    type,
    displayName: str(raw.display_name),
    placeholder: str(raw.placeholder),
    help: str(raw.help),
    required,
    showWhen,
    maxLength: maxLength !== null && maxLength >= 1 ? Math.floor(maxLength) : DEFAULT_MAX_LENGTH,
    choices: parseChoices(raw.choices),
    minSelected: minSelected !== null && minSelected >= 0 ? Math.floor(minSelected) : 0,
    maxSelected: maxSelected !== null && maxSelected >= 1 ? Math.floor(maxSelected) : null,
    min: num(raw.min),
    max: num(raw.max),
    step: step !== null && step > 0 ? step : 1,
    widget: raw.widget === "slider" ? "slider" : "input",
    scale: scale !== null && scale >= 2 && scale <= 10 ? Math.floor(scale) : 5,
    spanOf: str(raw.span_of).trim() || null,
    legacy: raw.type === undefined,
  };
}

function parseList(raw: unknown): FieldSpec[] {
  if (!Array.isArray(raw)) return [];
  const seen = new Set<string>();
  const out: FieldSpec[] = [];
  for (const item of raw) {
    const spec = parseFieldSpec(item);
    if (spec && !seen.has(spec.name)) {
      seen.add(spec.name);
      out.push(spec);
    }
  }
  return out;
}

/**
 * The field specs of a config: a task config document (its `input_fields`, or `validator_fields` with
 * `list = "validator_fields"`), or a list of specs itself. Tolerant: unreadable entries are skipped.
 */
export function parseFieldSpecs(config: unknown, list: "input_fields" | "validator_fields" = "input_fields"): FieldSpec[] {
  if (Array.isArray(config)) return parseList(config);
  if (!isObj(config)) return [];
  return parseList(config[list]);
}

/** The validator fields of a task config. */
export function parseValidatorFields(config: unknown): FieldSpec[] {
  return parseFieldSpecs(config, "validator_fields");
}

/** The fields shown under a condition ("always" for the form before submitting). */
export function fieldsShown(specs: FieldSpec[], when: ShowWhen): FieldSpec[] {
  return specs.filter((spec) => spec.showWhen === when);
}

/** The fields asked after the verdict: fooled → "fooled" fields; not fooled → "not_fooled" ones. */
export function fieldsAfterVerdict(specs: FieldSpec[], fooled: boolean): FieldSpec[] {
  return fieldsShown(specs, fooled ? "fooled" : "not_fooled");
}

/** The validator fields for a vote: the "always" ones, then the vote's own. */
export function fieldsForVote(specs: FieldSpec[], vote: "CORRECT" | "INCORRECT" | "FLAGGED" | null): FieldSpec[] {
  if (!vote) return [];
  const when = vote.toLowerCase() as ShowWhen;
  return specs.filter((spec) => spec.showWhen === "always" || spec.showWhen === when);
}

/** Values for the rating's radio buttons: 1..scale. */
export function ratingValues(spec: FieldSpec): number[] {
  return Array.from({ length: spec.scale }, (_, i) => i + 1);
}
