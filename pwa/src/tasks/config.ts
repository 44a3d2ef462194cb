/** Reading a task's config for display. Pure functions. */
import { formatPercent } from "../i18n/format";
import { localizeTask } from "../i18n/taskText";
import type { FieldSpec, TaskConfig } from "../api/types";

export function humanize(name: string): string {
  const words = name.replace(/_/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function fieldLabel(spec: FieldSpec): string {
  return spec.display_name?.trim() || humanize(spec.name);
}

/** The context fields' display names by field name (span fields name the text they select in). */
/** A field's display name in the UI locale: the config's translation, else its display name, else its name. */
export function fieldName(config: TaskConfig, spec: FieldSpec): string {
  return localizeTask({ name: "", config }).field(spec.name, fieldLabel(spec));
}

/** A label's display name in the UI locale: the config's translation, else the humanized label. */
export function labelName(config: TaskConfig, label: string): string {
  return localizeTask({ name: "", config }).label(label, humanize(label));
}

export function contextTitles(config: TaskConfig): Record<string, string> {
  return Object.fromEntries((config.context_fields ?? []).map((spec) => [spec.name, fieldName(config, spec)]));
}

export function isQA(config: TaskConfig): boolean {
  return config.kind === "extractive_qa";
}

/** A chat with a generative target (pwa/src/chat) instead of a written example. */
export function isGenerative(config: TaskConfig): boolean {
  return config.kind === "generative";
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
  return rate === null || rate === undefined ? "—" : formatPercent(rate);
}
