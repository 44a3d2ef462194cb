/**
 * The task creation form's state and the config document built from it (docs/task-config.md), the way back from a
 * config (the "Advanced: JSON" editor) to the form, and the form control each server field path belongs to.
 * Pure functions.
 */
import { formatNumber } from "../../i18n/format";
import { CREATE_TEXT } from "./text";

export type Kind = "classification" | "extractive_qa" | "generative";
/** Field types the server accepts (server/tasks/config.py); "text" is written by omitting `type`. */
export const INPUT_TYPES = [
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
export type InputType = (typeof INPUT_TYPES)[number];
export const CHOICE_TYPES: readonly InputType[] = ["single_label", "multi_label", "dropdown"];

export interface FieldRow {
  name: string;
  displayName: string;
  maxLength: string;
  placeholder: string;
  /** Input fields only. */
  type: InputType;
  choices: string; // comma-separated values (single_label, multi_label, dropdown)
  help: string;
  /** Sent to the target model (`model_inputs`). */
  toModel: boolean;
  /** When it is asked (input fields): always, or after the model's verdict. */
  showWhen: ShowWhen;
  /** number: range and step ("" → the server's default step of 1); rating: its scale; span: the context field. */
  min: string;
  max: string;
  step: string;
  slider: boolean;
  scale: string;
  spanOf: string;
}

export const SHOW_WHEN = ["always", "fooled", "not_fooled"] as const;
export type ShowWhen = (typeof SHOW_WHEN)[number];

/** A generative task's `generative` block (docs/task-config.md, "Generative tasks"), as the form edits it. */
export interface GenerativeState {
  mode: "chat" | "prompt";
  maxTurns: string; // chat mode: messages per conversation
  systemPrompt: string;
  goal: string;
  categories: string; // comma-separated identifiers
  maxTokens: string;
  temperature: string;
  judgeModel: string; // fooling judge_model: the classifier on Triton that scores each reply
  judgeLabel: string;
  judgeThreshold: string;
  /** fooling validator_rating: the validator field every vote rates in ("" → the first choice) and the threshold. */
  ratingField: string;
  ratingThreshold: string;
  /** Keys of the block this form has no control for (stop strings, the message length, the judge's input), kept. */
  extra: Record<string, unknown>;
}

export interface FormState {
  kind: Kind;
  contextFields: FieldRow[];
  inputFields: FieldRow[];
  labels: string; // comma-separated
  answerContextField: string;
  performanceMetric: string;
  foolingMetric: string;
  threshold: string;
  votes: string;
  /** Only the task's owners (and admins) read its leaderboard (config `dynascore.leaderboard: private`). */
  leaderboardPrivate?: boolean;
  /** A person who deletes their account has their work here removed (config `personal_data.on_account_deletion: remove`). */
  removeWorkOnDeletion?: boolean;
  /** Generative tasks only (the block is written for kind "generative"; kept meanwhile for a switch back). */
  generative?: GenerativeState;
  /** Keys of a config this form has no control for, kept as they were (the JSON editor may add them). */
  extra: Record<string, unknown>;
}

export const KINDS: readonly Kind[] = ["classification", "extractive_qa", "generative"];
export const METRICS: Record<Kind, string[]> = {
  classification: ["accuracy", "macro_f1"],
  extractive_qa: ["squad_f1"],
  generative: ["token_f1"],
};
export const FOOLING: Record<Kind, string[]> = {
  classification: ["exact_match", "ask_user"],
  extractive_qa: ["string_f1", "ask_user"],
  generative: ["ask_user", "judge_model", "validator_rating"],
};
const OUTPUTS: Record<Kind, string[]> = {
  classification: ["label", "probs"],
  extractive_qa: ["answer", "start", "end", "confidence"],
  generative: ["text_output"],
};

/** The server's defaults of a generative block (server/tasks/generative_config.py). */
export function defaultGenerative(): GenerativeState {
  return {
    mode: "chat", maxTurns: "5", systemPrompt: "", goal: "", categories: "", maxTokens: "128", temperature: "0.7",
    judgeModel: "", judgeLabel: "", judgeThreshold: "0.5", ratingField: "", ratingThreshold: "4", extra: {},
  };
}

/** The validator field the form adds when a validator_rating task has no rating field to choose. */
export const NEW_RATING_FIELD = "severity";

/** A validator field a rated vote may rate in (config `generative.rating.field`), or the one the form would add. */
export interface RatingChoice {
  name: string;
  label: string;
  low: number | null;
  high: number | null;
  isNew: boolean;
}

/**
 * The choices for `generative.rating.field`: the task's validator fields of type rating or number that every vote
 * answers (asked always, required), then — unless a validator field already has its name — a new 1–5 rating.
 */
export function ratingChoices(state: FormState): RatingChoice[] {
  const fields = Array.isArray(state.extra.validator_fields) ? state.extra.validator_fields.map(asObject) : [];
  const choices: RatingChoice[] = [];
  for (const f of fields) {
    if (typeof f.name !== "string" || (f.type !== "rating" && f.type !== "number")) continue;
    if ((f.show_when ?? "always") !== "always" || f.required === false) continue;
    const label = typeof f.display_name === "string" && f.display_name.trim() ? `${f.display_name.trim()} (${f.name})` : f.name;
    const scale = typeof f.scale === "number" ? f.scale : 5;
    const num = (v: unknown) => (typeof v === "number" ? v : null);
    choices.push({ name: f.name, label, low: f.type === "rating" ? 1 : num(f.min), high: f.type === "rating" ? scale : num(f.max), isNew: false });
  }
  if (!fields.some((f) => f.name === NEW_RATING_FIELD)) {
    choices.push({ name: NEW_RATING_FIELD, label: CREATE_TEXT.newRatingChoice, low: 1, high: 5, isNew: true });
  }
  return choices;
}

/** The rating field the form describes: the chosen one, else the first choice. */
export function chosenRating(state: FormState): RatingChoice | null {
  const choices = ratingChoices(state);
  const wanted = state.generative?.ratingField ?? "";
  return choices.find((c) => c.name === wanted) ?? choices[0] ?? null;
}

export function fieldRow(name: string, toModel: boolean, maxLength = ""): FieldRow {
  return {
    name, displayName: "", maxLength, placeholder: "", type: "text", choices: "", help: "", toModel, showWhen: "always",
    min: "", max: "", step: "", slider: false, scale: "", spanOf: "",
  };
}

/** Only text fields asked always can be sent to the model (the server's rule for `model_inputs`). */
export const modelReadable = (row: FieldRow, input: boolean): boolean =>
  !input || ((row.type === "text" || row.type === "multiline_text") && row.showWhen === "always");

export function defaultState(kind: Kind = "classification"): FormState {
  const qa = kind === "extractive_qa";
  if (kind === "generative") {
    // Annotators write messages, not fields: no input field; the scenario is shown to the model after its system prompt.
    return {
      ...defaultState("classification"),
      kind,
      contextFields: [{ ...fieldRow("scenario", true, "2000"), displayName: "Scenario" }],
      inputFields: [],
      labels: "",
      performanceMetric: METRICS.generative[0],
      foolingMetric: FOOLING.generative[0],
      generative: defaultGenerative(),
    };
  }
  return {
    kind,
    contextFields: [{ ...fieldRow("context", qa, "5000"), displayName: qa ? "Passage" : "Prompt" }],
    inputFields: [fieldRow(qa ? "question" : "statement", true, "1000")],
    labels: qa ? "" : "negative, positive, neutral",
    answerContextField: qa ? "context" : "",
    performanceMetric: METRICS[kind][0],
    foolingMetric: FOOLING[kind][0],
    threshold: "0.4",
    votes: "3",
    extra: {},
  };
}

/**
 * The form switched to another kind: metrics, labels and the answer field follow; the fields stay, except that a
 * generative task starts without input fields (annotators write messages) and with its context shown to the model
 * (context fields left as the defaults become its scenario), and a task switched back from it gets the defaults again.
 */
export function withKind(state: FormState, kind: Kind): FormState {
  if (state.kind === kind) return state;
  const base = defaultState(kind);
  const generative = kind === "generative";
  // Fields left as the previous kind's defaults become the new kind's (a generative task's context is a scenario).
  const untouched = (generative || state.kind === "generative")
    && sameRows(state.contextFields, defaultState(state.kind).contextFields);
  const contextFields = untouched
    ? base.contextFields
    : generative && !state.contextFields.some((r) => r.toModel)
      ? state.contextFields.map((r) => ({ ...r, toModel: true }))
      : state.contextFields;
  const inputFields = generative ? [] : state.kind === "generative" && !state.inputFields.length ? base.inputFields : state.inputFields;
  return {
    ...state,
    kind,
    contextFields,
    inputFields,
    generative: state.generative ?? (generative ? defaultGenerative() : undefined),
    labels: kind === "classification" ? state.labels || base.labels : "",
    answerContextField: kind === "extractive_qa" ? state.answerContextField || state.contextFields[0]?.name || "" : "",
    performanceMetric: base.performanceMetric,
    foolingMetric: base.foolingMetric,
  };
}

const sameRows = (a: FieldRow[], b: FieldRow[]) => JSON.stringify(a) === JSON.stringify(b);

export const splitList = (text: string): string[] => text.split(/[,\n]/).map((s) => s.trim()).filter(Boolean);

function numberOr(text: string, fallback: number): number {
  const value = Number(text.trim());
  return text.trim() !== "" && Number.isFinite(value) ? value : fallback;
}

function spec(row: FieldRow, input: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = { name: row.name.trim() };
  if (row.displayName.trim()) out.display_name = row.displayName.trim();
  if (row.placeholder.trim()) out.placeholder = row.placeholder.trim();
  if (row.maxLength.trim()) out.max_length = numberOr(row.maxLength, 2000);
  if (input) {
    if (row.type !== "text") out.type = row.type;
    if (row.showWhen !== "always") out.show_when = row.showWhen;
    if (CHOICE_TYPES.includes(row.type)) out.choices = splitList(row.choices);
    if (row.type === "number") {
      out.min = numberOr(row.min, 0);
      out.max = numberOr(row.max, 10);
      if (row.step.trim()) out.step = numberOr(row.step, 1);
      if (row.slider) out.widget = "slider";
    }
    if (row.type === "rating" && row.scale.trim()) out.scale = Math.round(numberOr(row.scale, 5));
    if (row.type === "span") out.span_of = row.spanOf.trim();
    if (row.help.trim()) out.help = row.help.trim();
  }
  return out;
}

/** The `generative` block the form describes; the judge only when a judge decides (fooling judge_model), the rating
 * rule only when validators' ratings do (validator_rating: `ratingField` names the field, resolved by the caller). */
export function buildGenerative(g: GenerativeState, foolingMetric: string): Record<string, unknown> {
  const block: Record<string, unknown> = { ...g.extra, mode: g.mode };
  if (g.mode === "chat") block.max_turns = Math.round(numberOr(g.maxTurns, 5));
  else delete block.max_turns;
  block.system_prompt = g.systemPrompt.trim();
  block.goal = g.goal.trim();
  block.attack_categories = splitList(g.categories);
  block.max_tokens = Math.round(numberOr(g.maxTokens, 128));
  block.temperature = numberOr(g.temperature, 0.7);
  if (foolingMetric === "judge_model") {
    block.judge = { ...asObject(g.extra.judge), model: g.judgeModel.trim(), label: g.judgeLabel.trim(), threshold: numberOr(g.judgeThreshold, 0.5) };
  } else {
    delete block.judge;
  }
  if (foolingMetric === "validator_rating") {
    block.rating = { ...asObject(g.extra.rating), field: g.ratingField.trim(), threshold: numberOr(g.ratingThreshold, 4) };
  } else {
    delete block.rating;
  }
  return block;
}

/** The config document the form describes (what createTask receives). */
export function buildConfig(state: FormState): Record<string, unknown> {
  const qa = state.kind === "extractive_qa";
  const generative = state.kind === "generative";
  const config: Record<string, unknown> = {
    ...state.extra,
    kind: state.kind,
    context_fields: state.contextFields.map((r) => spec(r, false)),
    input_fields: state.inputFields.map((r) => spec(r, true)),
    model_inputs: [
      ...state.contextFields.filter((r) => r.toModel),
      // A generative target is shown context fields only; input fields are asked when the conversation is submitted.
      ...(generative ? [] : state.inputFields.filter((r) => r.toModel && modelReadable(r, true))),
    ].map((r) => r.name.trim()),
    output_fields: OUTPUTS[state.kind],
    fooling: {
      metric: state.foolingMetric,
      ...(state.foolingMetric === "string_f1" ? { threshold: numberOr(state.threshold, 0.4) } : {}),
    },
    performance_metric: state.performanceMetric,
    validation: { ...asObject(state.extra.validation), num_matching_validations: Math.round(numberOr(state.votes, 3)) },
  };
  if (qa) config.answer_context_field = state.answerContextField;
  else if (generative) {
    const g = state.generative ?? defaultGenerative();
    const rated = state.foolingMetric === "validator_rating" ? chosenRating(state) : null;
    config.generative = buildGenerative(rated ? { ...g, ratingField: rated.name } : g, state.foolingMetric);
    if (rated?.isNew) {
      // No rating field to rate in yet: the form adds one (every vote answers it: asked always, required by default).
      const existing = Array.isArray(state.extra.validator_fields) ? state.extra.validator_fields : [];
      config.validator_fields = [
        ...existing,
        { name: rated.name, display_name: CREATE_TEXT.newRatingDisplay, type: "rating", scale: 5, help: CREATE_TEXT.newRatingHelp },
      ];
    }
  }
  else config.labels = splitList(state.labels);
  // Written only when it says something (private, or a stored choice): a config without it reads as before.
  const dynascore = { ...asObject(state.extra.dynascore) };
  if (state.leaderboardPrivate) dynascore.leaderboard = "private";
  else if ("leaderboard" in dynascore) dynascore.leaderboard = "public";
  if (Object.keys(dynascore).length) config.dynascore = dynascore;
  // The same for a deleted account's work: written when it says remove, or turns a stored choice back to keep.
  const personal = { ...asObject(state.extra.personal_data) };
  if (state.removeWorkOnDeletion) personal.on_account_deletion = "remove";
  else if ("on_account_deletion" in personal) personal.on_account_deletion = "keep";
  if (Object.keys(personal).length) config.personal_data = personal;
  return config;
}

function asObject(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

const CONTROLLED = new Set([
  "kind", "context_fields", "input_fields", "model_inputs", "output_fields", "fooling", "performance_metric", "validation",
  "labels", "answer_context_field", "generative",
]);

const GENERATIVE_CONTROLLED = new Set([
  "mode", "max_turns", "system_prompt", "goal", "attack_categories", "max_tokens", "temperature", "judge", "rating",
]);

/** A config's `generative` block as form state (what the form has no control for kept in `extra`). */
export function generativeFromConfig(value: unknown): GenerativeState {
  const g = asObject(value);
  const base = defaultGenerative();
  const judge = asObject(g.judge);
  const { model: _model, label: _label, threshold: _threshold, ...judgeRest } = judge;
  const extra: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(g)) if (!GENERATIVE_CONTROLLED.has(key)) extra[key] = v;
  if (Object.keys(judgeRest).length) extra.judge = judgeRest;
  const rating = asObject(g.rating);
  const { field: _field, threshold: _ratingThreshold, ...ratingRest } = rating;
  if (Object.keys(ratingRest).length) extra.rating = ratingRest;
  const text = (v: unknown, fallback: string) => (typeof v === "string" ? v : fallback);
  const num = (v: unknown, fallback: string) => (typeof v === "number" ? String(v) : fallback);
  return {
    mode: g.mode === "prompt" ? "prompt" : "chat",
    maxTurns: num(g.max_turns, base.maxTurns),
    systemPrompt: text(g.system_prompt, ""),
    goal: text(g.goal, ""),
    categories: Array.isArray(g.attack_categories) ? g.attack_categories.join(", ") : "",
    maxTokens: num(g.max_tokens, base.maxTokens),
    temperature: num(g.temperature, base.temperature),
    judgeModel: text(judge.model, ""),
    judgeLabel: text(judge.label, ""),
    judgeThreshold: num(judge.threshold, base.judgeThreshold),
    ratingField: text(rating.field, ""),
    ratingThreshold: num(rating.threshold, base.ratingThreshold),
    extra,
  };
}

function rowOf(raw: unknown, modelInputs: string[], input: boolean): FieldRow | null {
  const o = asObject(raw);
  if (typeof o.name !== "string") return null;
  const type = input && typeof o.type === "string" && (INPUT_TYPES as readonly string[]).includes(o.type) ? (o.type as InputType) : "text";
  const choices = Array.isArray(o.choices)
    ? o.choices.map((c) => (typeof c === "string" ? c : String(asObject(c).value ?? ""))).filter(Boolean).join(", ")
    : "";
  return {
    name: o.name,
    displayName: typeof o.display_name === "string" ? o.display_name : "",
    maxLength: typeof o.max_length === "number" ? String(o.max_length) : "",
    placeholder: typeof o.placeholder === "string" ? o.placeholder : "",
    type,
    choices,
    help: typeof o.help === "string" ? o.help : "",
    toModel: modelInputs.includes(o.name),
    showWhen: o.show_when === "fooled" || o.show_when === "not_fooled" ? o.show_when : "always",
    min: typeof o.min === "number" ? String(o.min) : "",
    max: typeof o.max === "number" ? String(o.max) : "",
    step: typeof o.step === "number" ? String(o.step) : "",
    slider: o.widget === "slider",
    scale: typeof o.scale === "number" ? String(o.scale) : "",
    spanOf: typeof o.span_of === "string" ? o.span_of : "",
  };
}

/**
 * A config (from the JSON editor) back as form state, or null when the form cannot show it (not an object, an unknown
 * kind, or fields it cannot read); keys the form has no control for are kept in `extra`.
 */
export function stateFromConfig(config: unknown): FormState | null {
  const o = asObject(config);
  if (o.kind !== "classification" && o.kind !== "extractive_qa" && o.kind !== "generative") return null;
  const kind: Kind = o.kind;
  // A generative task may leave its input fields out (the server's default: none).
  const inputList = kind === "generative" && o.input_fields === undefined ? [] : o.input_fields;
  if (!Array.isArray(o.context_fields) || !Array.isArray(inputList)) return null;
  const modelInputs = Array.isArray(o.model_inputs) ? o.model_inputs.filter((n): n is string => typeof n === "string") : [];
  const contextFields = o.context_fields.map((r) => rowOf(r, modelInputs, false));
  const inputFields = inputList.map((r) => rowOf(r, modelInputs, true));
  if (contextFields.includes(null) || inputFields.includes(null)) return null;
  const fooling = asObject(o.fooling);
  const validation = asObject(o.validation);
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(o)) if (!CONTROLLED.has(key)) extra[key] = value;
  const { num_matching_validations: votes, ...otherValidation } = validation;
  if (Object.keys(otherValidation).length) extra.validation = otherValidation;
  const base = defaultState(kind);
  return {
    kind,
    contextFields: contextFields as FieldRow[],
    inputFields: inputFields as FieldRow[],
    labels: Array.isArray(o.labels) ? o.labels.join(", ") : "",
    answerContextField: typeof o.answer_context_field === "string" ? o.answer_context_field : "",
    performanceMetric: typeof o.performance_metric === "string" ? o.performance_metric : base.performanceMetric,
    foolingMetric: typeof fooling.metric === "string" ? fooling.metric : base.foolingMetric,
    threshold: typeof fooling.threshold === "number" ? String(fooling.threshold) : base.threshold,
    votes: typeof votes === "number" ? String(votes) : base.votes,
    leaderboardPrivate: asObject(o.dynascore).leaderboard === "private",
    removeWorkOnDeletion: asObject(o.personal_data).on_account_deletion === "remove",
    ...(kind === "generative" ? { generative: generativeFromConfig(o.generative) } : {}),
    extra,
  };
}

/** The text's JSON value, or null when it does not parse (the preview of a JSON editor's text). */
export function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** A JSON syntax error with its line and column (1-based), or null when the text parses. */
export function jsonProblem(text: string): { line: number; column: number; message: string } | null {
  try {
    JSON.parse(text);
    return null;
  } catch (problem) {
    const message = problem instanceof Error ? problem.message : String(problem);
    const lineCol = /line (\d+) column (\d+)/.exec(message);
    if (lineCol) return { line: Number(lineCol[1]), column: Number(lineCol[2]), message };
    const at = /position (\d+)/.exec(message);
    const offset = at ? Number(at[1]) : text.length;
    const before = text.slice(0, offset).split("\n");
    return { line: before.length, column: before[before.length - 1].length + 1, message };
  }
}

/**
 * The id of the form control a server (or client) field path belongs to, e.g. "config.input_fields.0.name" →
 * "ct-input-0-name"; null for paths the form has no control for (shown in the page's message).
 */
export function controlFor(path: string): string | null {
  const parts = path.split(".");
  const [head, ...rest] = parts;
  if (head === "code" || head === "name" || head === "description" || head === "instructions") return `ct-${head}`;
  if (head === "targetModels") return "ct-target";
  if (head !== "config") return null;
  if (rest[0] === "generative") return generativeControl(rest.slice(1));
  const [key, index, sub] = rest;
  switch (key) {
    case undefined:
      return null;
    case "kind":
      return "ct-kind";
    case "labels":
      return "ct-labels";
    case "answer_context_field":
      return "ct-answer-field";
    case "performance_metric":
      return "ct-metric";
    case "fooling":
      return index === "threshold" ? "ct-threshold" : "ct-fooling";
    case "validation":
      return "ct-votes";
    case "model_inputs":
      return "ct-input-0-model";
    case "context_fields":
    case "input_fields": {
      const prefix = key === "context_fields" ? "context" : "input";
      const i = /^\d+$/.test(index ?? "") ? index : "0";
      const control: Record<string, string> = {
        display_name: "display", max_length: "maxlength", placeholder: "placeholder", type: "type", choices: "choices",
        help: "help", show_when: "when", min: "min", max: "max", step: "step", widget: "step", scale: "scale",
        span_of: "spanof", min_selected: "choices", max_selected: "choices", required: "when",
      };
      return `ct-${prefix}-${i}-${(sub && control[sub]) || "name"}`;
    }
    default:
      return null;
  }
}

/** The control of a path inside the generative block (`generative.judge.model` → "ct-gen-judge-model"). */
function generativeControl(path: string[]): string | null {
  const [key, sub] = path;
  const controls: Record<string, string> = {
    mode: "ct-gen-mode", max_turns: "ct-gen-turns", system_prompt: "ct-gen-system", goal: "ct-gen-goal",
    attack_categories: "ct-gen-categories", max_tokens: "ct-gen-max-tokens", temperature: "ct-gen-temperature",
  };
  if (key === undefined) return "ct-gen-goal"; // the block is missing: the goal is the first thing it needs
  if (key === "rating") return sub === "threshold" ? "ct-gen-rating-threshold" : "ct-gen-rating-field";
  if (key === "judge") return sub === "label" ? "ct-gen-judge-label" : sub === "threshold" ? "ct-gen-judge-threshold" : "ct-gen-judge-model";
  return controls[key] ?? null;
}

export interface Problem {
  field: string;
  message: string;
}

/** What the form can tell before the round trip (the server checks everything again), as server-style paths. */
export function clientProblems(code: string, name: string, state: FormState | null): Problem[] {
  const problems: Problem[] = [];
  const t = CREATE_TEXT.problems;
  if (!code.trim()) problems.push({ field: "code", message: t.codeMissing });
  else if (!/^[a-z][a-z0-9_]{1,47}$/.test(code.trim()))
    problems.push({ field: "code", message: t.codeShape });
  if (!name.trim()) problems.push({ field: "name", message: t.nameMissing });
  if (state === null) return problems; // a config from the JSON editor: the server checks it
  const rows: [string, FieldRow[]][] = [["context_fields", state.contextFields], ["input_fields", state.inputFields]];
  for (const [key, list] of rows)
    list.forEach((row, i) => {
      if (!/^[a-z][a-z0-9_]{0,47}$/.test(row.name.trim()))
        problems.push({ field: `config.${key}.${i}.name`, message: t.fieldName });
      if (key !== "input_fields") return;
      const at = (sub: string) => `config.${key}.${i}.${sub}`;
      const least = row.type === "multi_label" ? 1 : 2;
      if (CHOICE_TYPES.includes(row.type) && splitList(row.choices).length < least)
        problems.push({ field: at("choices"), message: least === 1 ? t.oneChoice : t.twoChoices });
      if (row.type === "number") {
        const [min, max] = [row.min, row.max].map((v) => (v.trim() === "" ? NaN : Number(v)));
        if (!Number.isFinite(min)) problems.push({ field: at("min"), message: t.minMissing });
        if (!Number.isFinite(max)) problems.push({ field: at("max"), message: t.maxMissing });
        else if (Number.isFinite(min) && max <= min) problems.push({ field: at("max"), message: t.maxNotAbove });
      }
      if (row.type === "span" && !state.contextFields.some((c) => c.name.trim() === row.spanOf.trim()))
        problems.push({ field: at("span_of"), message: t.spanOf });
    });
  if (state.kind === "classification" && splitList(state.labels).length < 2)
    problems.push({ field: "config.labels", message: t.twoLabels });
  if (state.kind === "generative") {
    const g = state.generative ?? defaultGenerative();
    if (!g.goal.trim()) problems.push({ field: "config.generative.goal", message: t.goalMissing });
    if (state.foolingMetric === "judge_model") {
      if (!g.judgeModel.trim()) problems.push({ field: "config.generative.judge.model", message: t.judgeModelMissing });
      if (!g.judgeLabel.trim()) problems.push({ field: "config.generative.judge.label", message: t.judgeLabelMissing });
    }
    if (state.foolingMetric === "validator_rating") {
      const at = "config.generative.rating.threshold";
      const threshold = g.ratingThreshold.trim() === "" ? NaN : Number(g.ratingThreshold);
      const rated = chosenRating(state);
      if (!Number.isFinite(threshold)) problems.push({ field: at, message: t.ratingThresholdMissing });
      else if (rated && rated.low !== null && rated.high !== null && !(rated.low < threshold && threshold <= rated.high))
        problems.push({ field: at, message: t.ratingThresholdRange(formatNumber(rated.low), formatNumber(rated.high)) });
    }
  }
  return problems;
}
