/** Reading a task's config for display. Pure functions. */
import type { FieldSpec, TaskConfig } from "../api/types";

export function humanize(name: string): string {
  const words = name.replace(/_/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function fieldLabel(spec: FieldSpec): string {
  return spec.display_name?.trim() || humanize(spec.name);
}

/** The context fields' display names by field name (span fields name the text they select in). */
export function contextTitles(config: TaskConfig): Record<string, string> {
  return Object.fromEntries((config.context_fields ?? []).map((spec) => [spec.name, fieldLabel(spec)]));
}

export function isQA(config: TaskConfig): boolean {
  return config.kind === "extractive_qa";
}

export function labelsOf(config: TaskConfig): string[] {
  return config.kind === "classification" ? (config.labels ?? []) : [];
}

/** fooling `ask_user`: the annotator, not a metric, says whether the model got an example wrong. */
export function asksAnnotator(config: TaskConfig): boolean {
  return (config.fooling as { metric?: unknown } | undefined)?.metric === "ask_user";
}

/** The context field that holds the passage answers are spans of (QA only). */
export function passageField(config: TaskConfig): string | null {
  if (!isQA(config)) return null;
  return config.answer_context_field ?? config.context_fields[0]?.name ?? null;
}

export function formatRate(rate: number | null | undefined): string {
  return rate === null || rate === undefined ? "—" : `${(rate * 100).toFixed(1)}%`;
}
