/**
 * The browse page's pure parts: the filter form's values (strings, as typed) and the ExampleFilterInput sent to
 * roundExamples, the text shown for an example's input, and what a bulk action's outcomes add up to. Unit-tested in
 * filters.test.ts.
 */
import type { Example } from "../../api/types";
import { isTranscriptInput, transcriptSummary } from "../../transcript/transcript";
import { humanize } from "../../forms/specs";

export const STATUSES = ["PENDING", "AWAITING_CLAIM", "OPEN", "CLOSED", "VALIDATED", "REJECTED", "FLAGGED"] as const;
export type ExampleStatus = (typeof STATUSES)[number];
export const ACTIONS = ["VALIDATE_CORRECT", "VALIDATE_INCORRECT", "VALIDATE_FLAGGED", "RESOLVE_FLAG", "RETRACT"] as const;
export type BulkAction = (typeof ACTIONS)[number];
export type Choice = "any" | "yes" | "no";

/** The server's own limits (server/annotation/browse/filters.py). */
export const LIMITS = { text: 200, author: 150, batch: 100 } as const;

export interface FilterValues {
  text: string;
  statuses: ExampleStatus[];
  fooled: Choice;
  flagged: Choice;
  retracted: Choice;
  author: string;
  from: string; // yyyy-mm-dd (input type=date), the first day included
  to: string; // yyyy-mm-dd, the last day included
}

export interface ExampleFilterInput {
  statuses?: ExampleStatus[];
  fooled?: boolean;
  flagged?: boolean;
  retracted?: boolean;
  author?: string;
  createdAfter?: string;
  createdBefore?: string;
  text?: string;
}

export type FilterProblem = "textTooLong" | "authorTooLong" | "badDate" | "datesReversed";

export function emptyFilter(): FilterValues {
  return { text: "", statuses: [], fooled: "any", flagged: "any", retracted: "any", author: "", from: "", to: "" };
}

const choice = (value: Choice): boolean | undefined => (value === "any" ? undefined : value === "yes");

/** Local midnight starting the given day (yyyy-mm-dd), plus `days`; null for anything else. */
export function dayStart(day: string, days = 0): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return null;
  const [year, month, date] = [Number(match[1]), Number(match[2]) - 1, Number(match[3])];
  const value = new Date(year, month, date + days);
  const check = new Date(year, month, date);
  return check.getFullYear() === year && check.getMonth() === month && check.getDate() === date ? value : null;
}

/** The form as the API's filter (only the fields that narrow the list), or the problems to fix first. */
export function toFilterInput(values: FilterValues): { input: ExampleFilterInput; problems: FilterProblem[] } {
  const input: ExampleFilterInput = {};
  const problems: FilterProblem[] = [];
  const text = values.text.trim();
  if (text.length > LIMITS.text) problems.push("textTooLong");
  else if (text) input.text = text;
  const author = values.author.trim().replace(/^@/, "");
  if (author.length > LIMITS.author) problems.push("authorTooLong");
  else if (author) input.author = author;
  if (values.statuses.length) input.statuses = STATUSES.filter((s) => values.statuses.includes(s));
  const fooled = choice(values.fooled);
  if (fooled !== undefined) input.fooled = fooled;
  const flagged = choice(values.flagged);
  if (flagged !== undefined) input.flagged = flagged;
  const retracted = choice(values.retracted);
  if (retracted !== undefined) input.retracted = retracted;
  const after = values.from ? dayStart(values.from) : undefined;
  const before = values.to ? dayStart(values.to, 1) : undefined; // the whole last day
  if (after === null || before === null) problems.push("badDate");
  else {
    if (after && before && after >= before) problems.push("datesReversed");
    if (after) input.createdAfter = after.toISOString();
    if (before) input.createdBefore = before.toISOString();
  }
  return { input, problems };
}

const ANSWER_KEYS = new Set(["label", "answer", "answer_start", "answer_end"]);

/** The annotator's own fields as one readable text, and the label (or answer) apart. */
export function inputText(input: Record<string, unknown>): { text: string; label: string | null } {
  // A conversation (generative tasks): named by its author's last message; the card shows the transcript.
  if (isTranscriptInput(input)) return { text: transcriptSummary(input), label: null };
  const parts = Object.entries(input)
    .filter(([key, value]) => !ANSWER_KEYS.has(key) && value !== null && value !== undefined && value !== "")
    .map(([, value]) => (typeof value === "string" ? value : JSON.stringify(value)));
  const answer = input.label ?? input.answer;
  return { text: parts.join("\n"), label: answer === undefined || answer === null ? null : String(answer) };
}

export interface Outcome {
  exampleId: string;
  done: boolean;
  code: string | null;
  message: string;
  example: Example | null;
}

export interface OutcomeSummary {
  done: number;
  failed: number;
  failures: { exampleId: string; message: string }[];
}

export function summarizeOutcomes(outcomes: Outcome[]): OutcomeSummary {
  const failures = outcomes.filter((o) => !o.done).map((o) => ({ exampleId: o.exampleId, message: o.message }));
  return { done: outcomes.length - failures.length, failed: failures.length, failures };
}

type Listed = Pick<Example, "status" | "fooled" | "flagged" | "retracted">;

/**
 * Whether an example still belongs in a list filtered so, as far as an action can change it (status, fooled, flagged,
 * retracted; the text, author and dates do not change). Flagged means the author's flag or the flagged status, as on
 * the server (server/annotation/browse/queries.py).
 */
export function stillListed(example: Listed, filter: ExampleFilterInput | null): boolean {
  if (!filter) return true;
  const flagged = example.flagged || example.status.toUpperCase() === "FLAGGED";
  if (filter.statuses?.length && !filter.statuses.includes(example.status.toUpperCase() as ExampleStatus)) return false;
  if (filter.fooled !== undefined && example.fooled !== filter.fooled) return false;
  if (filter.flagged !== undefined && flagged !== filter.flagged) return false;
  if (filter.retracted !== undefined && example.retracted !== filter.retracted) return false;
  return true;
}

/** The flag queue's filter (server/annotation/browse/filters.py flag_queue): flagged, not retracted. */
export const FLAG_QUEUE: ExampleFilterInput = { flagged: true, retracted: false };

/**
 * The list after an action, from the action's own answer: each example the server answered replaces the old copy in
 * place, and one that no longer matches the list's filter leaves it (a resolved flag leaves the flag queue).
 */
export function applyOutcomes<T extends { id: string } & Listed>(list: T[], outcomes: Outcome[], filter: ExampleFilterInput | null = null): T[] {
  const changed = new Map(outcomes.filter((o) => o.example).map((o) => [o.exampleId, o.example as Example]));
  return list
    .map((item) => (changed.has(item.id) ? { ...item, ...changed.get(item.id) } : item))
    .filter((item) => !changed.has(item.id) || stillListed(item, filter));
}

/** Newly loaded examples after the ones shown, each once (a page may overlap after changes). */
export function appendPage<T extends { id: string }>(list: T[], page: T[]): T[] {
  const seen = new Set(list.map((item) => item.id));
  return [...list, ...page.filter((item) => !seen.has(item.id))];
}

/** The selection toggled for one example, capped at the server's batch size. */
export function toggle(selected: string[], id: string, on: boolean): string[] {
  if (!on) return selected.filter((s) => s !== id);
  if (selected.includes(id) || selected.length >= LIMITS.batch) return selected;
  return [...selected, id];
}

/** A vote's validator fields as [field, answer] pairs for display (ratings, categories, rationales), in the order given;
 * empty answers are left out. */
export function voteFieldPairs(fields: Record<string, unknown> | null | undefined): [string, string][] {
  const pairs: [string, string][] = [];
  for (const [name, value] of Object.entries(fields ?? {})) {
    const text = Array.isArray(value) ? value.map((v) => humanize(String(v))).join(", ") : value === null ? "" : String(value);
    if (text.trim()) pairs.push([humanize(name), text]);
  }
  return pairs;
}
