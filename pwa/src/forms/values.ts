/**
 * Form values: client-side validation mirroring the server's (so errors show before the round trip), the
 * values as the API wants them, and server field errors mapped back to fields. Pure functions.
 *
 * Values in the form, by type: text → string; multi_label → string[]; number → number (or the raw string
 * while it is not one); single_label/dropdown → a choice value; rating → int; boolean → bool;
 * span → {start, end} as UTF-16 offsets into the `span_of` context text (the browser's).
 */
import type { FieldError } from "../api/types";
import { toCodePointOffset } from "../annotate/spans";
import type { FieldSpec } from "./specs";
import { FORM_TEXT } from "./text";

export type FormValues = Record<string, unknown>;
export type FormErrors = Record<string, string>;

export interface Span {
  start: number;
  end: number;
}

export function isSpan(value: unknown): value is Span {
  if (typeof value !== "object" || value === null) return false;
  const { start, end } = value as Record<string, unknown>;
  return Number.isInteger(start) && Number.isInteger(end);
}

/** Length in code points (the server's count). */
export function textLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** No answer given: nothing, blank text, no selection. (`false` is an answer for a boolean.) */
export function isEmpty(spec: FieldSpec, value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === "string") return value.trim() === "";
  if (Array.isArray(value)) return spec.type === "multi_label" ? false : value.length === 0;
  return false;
}

function onGrid(value: number, base: number, step: number): boolean {
  const k = (value - base) / step;
  return Math.abs(k - Math.round(k)) < 1e-9 * Math.max(1, Math.abs(k));
}

/** What is wrong with one value, or null. `contexts`: the context texts (for span fields). */
export function fieldProblem(spec: FieldSpec, given: unknown, contexts: Record<string, string> = {}): string | null {
  // Nothing ticked in a multi_label is an empty selection: its count is checked below.
  const value = spec.type === "multi_label" && (given === undefined || given === null) ? [] : given;
  const noneSelected = Array.isArray(value) && value.length === 0;
  if (spec.type === "multi_label" && noneSelected && !spec.required) return null;
  if (isEmpty(spec, value)) {
    if (!spec.required) return null;
    if (spec.type === "span") return FORM_TEXT.missingSpan;
    if (spec.type === "text" || spec.type === "multiline_text" || spec.type === "number") return FORM_TEXT.missing;
    return FORM_TEXT.missingChoice;
  }
  const values = new Set(spec.choices.map((c) => c.value));
  switch (spec.type) {
    case "text":
    case "multiline_text":
      if (typeof value !== "string") return FORM_TEXT.missing;
      return textLength(value) > spec.maxLength ? FORM_TEXT.tooLong(spec.maxLength) : null;
    case "single_label":
    case "dropdown":
      return typeof value === "string" && values.has(value) ? null : FORM_TEXT.unknownChoice;
    case "multi_label": {
      if (!Array.isArray(value) || value.some((v) => typeof v !== "string" || !values.has(v))) return FORM_TEXT.unknownChoice;
      const count = new Set(value).size;
      const least = Math.max(spec.minSelected, spec.required ? 1 : 0);
      if (count < least) return FORM_TEXT.tooFewSelected(least);
      if (spec.maxSelected !== null && count > spec.maxSelected) return FORM_TEXT.tooManySelected(spec.maxSelected);
      return null;
    }
    case "number": {
      const n = typeof value === "number" ? value : typeof value === "string" ? Number(value) : NaN;
      if (!Number.isFinite(n)) return FORM_TEXT.notNumber;
      if (spec.min !== null && n < spec.min) return FORM_TEXT.belowMin(spec.min);
      if (spec.max !== null && n > spec.max) return FORM_TEXT.aboveMax(spec.max);
      const base = spec.min ?? 0;
      return onGrid(n, base, spec.step) ? null : FORM_TEXT.offStep(spec.step, base);
    }
    case "rating":
      return Number.isInteger(value) && (value as number) >= 1 && (value as number) <= spec.scale ? null : FORM_TEXT.badRating(spec.scale);
    case "boolean":
      return typeof value === "boolean" ? null : FORM_TEXT.missingChoice;
    case "span": {
      if (!isSpan(value)) return FORM_TEXT.missingSpan;
      const text = spec.spanOf !== null ? contexts[spec.spanOf] : undefined;
      if (text === undefined) return FORM_TEXT.spanNoContext;
      return value.start >= 0 && value.end > value.start && value.end <= text.length ? null : FORM_TEXT.badSpan;
    }
  }
}

/** The problems of the shown fields, by field name (in the fields' order). */
export function validateValues(specs: FieldSpec[], values: FormValues, contexts: Record<string, string> = {}): FormErrors {
  const errors: FormErrors = {};
  for (const spec of specs) {
    const value = spec.type === "boolean" && values[spec.name] === undefined ? false : values[spec.name];
    const problem = fieldProblem(spec, value, contexts);
    if (problem) errors[spec.name] = problem;
  }
  return errors;
}

/** The first field (in the specs' order) with an error, or null. */
export function firstInvalid(specs: FieldSpec[], errors: FormErrors): string | null {
  return specs.find((spec) => errors[spec.name] !== undefined)?.name ?? null;
}

/**
 * The values as the API wants them: only the given fields; empty optional ones left out; numbers as
 * numbers; booleans always (unticked = false); spans as {start, end} code-point offsets into the context.
 */
export function apiValues(specs: FieldSpec[], values: FormValues, contexts: Record<string, string> = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const spec of specs) {
    const value = values[spec.name];
    if (spec.type === "boolean") {
      out[spec.name] = value === true;
      continue;
    }
    if (isEmpty(spec, value) || (Array.isArray(value) && value.length === 0)) continue;
    if (spec.type === "number") out[spec.name] = typeof value === "number" ? value : Number(value);
    else if (spec.type === "multi_label") out[spec.name] = [...new Set(value as string[])];
    else if (spec.type === "span" && isSpan(value)) {
      const text = (spec.spanOf !== null ? contexts[spec.spanOf] : undefined) ?? "";
      out[spec.name] = { start: toCodePointOffset(text, value.start), end: toCodePointOffset(text, value.end) };
    } else out[spec.name] = value;
  }
  return out;
}

/**
 * Server field errors (paths like "fields.stance", "input.fields.why.0", "values.corrected_label") mapped to
 * the named fields: the first path segment that is a field's name wins.
 */
export function errorsFromServer(specs: FieldSpec[], errors: FieldError[]): FormErrors {
  const names = new Set(specs.map((s) => s.name));
  const out: FormErrors = {};
  for (const error of errors) {
    const name = error.field.split(".").find((part) => names.has(part));
    if (name && out[name] === undefined) out[name] = error.message;
  }
  return out;
}

/**
 * A stored value for display (the API's form: spans as {start, end} code points, with "text" when the server
 * added it). Unknown shapes are shown as JSON.
 */
export function displayValue(spec: FieldSpec, value: unknown): string {
  if (value === undefined || value === null || value === "") return "";
  const label = (v: unknown) => spec.choices.find((c) => c.value === v)?.label ?? String(v);
  switch (spec.type) {
    case "single_label":
    case "dropdown":
      return label(value);
    case "multi_label":
      return Array.isArray(value) ? value.map(label).join(", ") : String(value);
    case "rating":
      return typeof value === "number" ? FORM_TEXT.ratingOf(value, spec.scale) : String(value);
    case "boolean":
      return value === true ? FORM_TEXT.yes : value === false ? FORM_TEXT.no : String(value);
    case "span":
      if (typeof value === "object" && typeof (value as { text?: unknown }).text === "string") return (value as { text: string }).text;
      return typeof value === "string" ? value : JSON.stringify(value);
    default:
      return typeof value === "string" || typeof value === "number" ? String(value) : JSON.stringify(value);
  }
}
