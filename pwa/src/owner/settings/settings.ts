/**
 * The task settings page's pure logic: the config the create form edits merged back into the stored config (so keys
 * the form has no control for survive), whether the form can show a config without losing anything, the versions
 * list with the rounds using each version, where a server error goes, and what owners may do with visibility.
 */
import { buildConfig, controlFor, stateFromConfig, type FormState } from "../create/builder";
import type { ConfigVersion, RoundVersion, TaskStatus, Visibility } from "./documents";

export const STATUSES: readonly TaskStatus[] = ["PROPOSED", "REJECTED", "PUBLIC", "HIDDEN", "ARCHIVED"];
export const VISIBILITIES: readonly Visibility[] = ["PUBLIC", "HIDDEN", "ARCHIVED"];

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

/** Deep equality of JSON values, key order ignored. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  }
  if (!isObject(a) || !isObject(b)) return false;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) if (!sameJson(a[key], b[key])) return false;
  return true;
}

/** Field spec keys the create form writes (builder.ts `spec`): any other key of a stored field is kept as it was. */
const FORM_KEYS = [
  "name", "display_name", "placeholder", "max_length", "type", "show_when", "choices", "min", "max", "step", "widget",
  "scale", "span_of", "help",
];
const DEFAULTS: Json = { type: "text", show_when: "always" };

function blank(key: string, value: unknown): boolean {
  return value === null || value === undefined || value === "" || value === false || DEFAULTS[key] === value ||
    (Array.isArray(value) && value.length === 0);
}

const choiceValue = (choice: unknown): unknown => (isObject(choice) ? choice.value : choice);

function mergeChoices(base: unknown, built: unknown): unknown {
  if (!Array.isArray(built)) return built;
  const known = Array.isArray(base) ? base : [];
  return built.map((item) => known.find((c) => choiceValue(c) === choiceValue(item)) ?? item);
}

function mergeField(base: Json, built: Json): Json {
  const out: Json = { ...base };
  for (const key of FORM_KEYS) {
    if (key in built) out[key] = key === "choices" ? mergeChoices(base.choices, built.choices) : built[key];
    else if (!blank(key, base[key])) delete out[key];
  }
  return out;
}

function mergeFields(base: unknown, built: unknown): unknown {
  if (!Array.isArray(built)) return built;
  const known = Array.isArray(base) ? base.filter(isObject) : [];
  return built.map((row) => {
    if (!isObject(row)) return row;
    const before = known.find((k) => k.name === row.name);
    return before ? mergeField(before, row) : row;
  });
}

const sameSet = (a: unknown, b: unknown) =>
  Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x) => b.includes(x));

/** The config the form built, laid over the stored one: what the form does not control stays as stored. */
export function mergeConfig(base: Json, built: Json): Json {
  const out: Json = { ...base, ...built };
  if (base.kind !== built.kind) {
    for (const key of ["labels", "answer_context_field", "output_fields"]) if (!(key in built)) delete out[key];
    return out;
  }
  out.context_fields = mergeFields(base.context_fields, built.context_fields);
  out.input_fields = mergeFields(base.input_fields, built.input_fields);
  if (sameSet(base.model_inputs, built.model_inputs)) out.model_inputs = base.model_inputs;
  if (sameSet(base.output_fields, built.output_fields)) out.output_fields = base.output_fields;
  if (isObject(base.fooling) && isObject(built.fooling)) out.fooling = { ...base.fooling, ...built.fooling };
  if (isObject(base.validation) && isObject(built.validation)) out.validation = { ...base.validation, ...built.validation };
  if (isObject(base.generative) && isObject(built.generative)) {
    // The server stores an absent judge or rating rule as null: kept so, an untouched form changes nothing.
    const nulls = Object.entries(base.generative).filter(([key, value]) => value === null && !(key in (built.generative as Json)));
    out.generative = { ...Object.fromEntries(nulls), ...built.generative };
  }
  return out;
}

/** The form state of a stored config when the form can show it without losing anything, else null (JSON only). */
export function formStateOf(config: Json): FormState | null {
  const state = stateFromConfig(config);
  if (!state) return null;
  return sameJson(mergeConfig(config, buildConfig(state)), config) ? state : null;
}

export interface VersionRow {
  version: number;
  createdAt: string;
  rounds: number[];
  current: boolean;
}

/** Newest version first, each with the rounds that run with it (ascending). */
export function versionRows(versions: ConfigVersion[], rounds: RoundVersion[], current: number): VersionRow[] {
  return [...versions]
    .sort((a, b) => b.version - a.version)
    .map((v) => ({
      version: v.version,
      createdAt: v.createdAt,
      rounds: rounds.filter((r) => r.configVersion === v.version).map((r) => r.number).sort((a, b) => a - b),
      current: v.version === current,
    }));
}

/** The id of the control a server field path belongs to: the JSON editor takes every config error while it is open. */
export function controlOf(field: string, jsonOpen: boolean): string | null {
  if (field === "name" || field === "description" || field === "instructions") return `st-${field}`;
  if (!field.startsWith("config")) return null;
  return jsonOpen ? "st-json" : controlFor(field);
}

/** What an owner may switch the task to: nothing while it is a proposal (an admin reviews it first). */
export function visibilityChoices(status: TaskStatus): Visibility[] {
  return status === "PROPOSED" || status === "REJECTED" ? [] : VISIBILITIES.filter((v) => v !== status);
}

/** A task always keeps one owner: the last one's remove button is disabled (and says why). */
export const canRemoveOwner = (owners: string[]): boolean => owners.length > 1;

/** Server-sanitized instructions shown under the page's h3: their headings move down so the outline stays in order. */
export function demoteHeadings(html: string, by = 3): string {
  return html.replace(/<(\/?)h([1-6])(\s[^>]*)?>/g, (_, slash: string, level: string, rest = "") =>
    `<${slash}h${Math.min(6, Number(level) + by)}${rest}>`);
}
