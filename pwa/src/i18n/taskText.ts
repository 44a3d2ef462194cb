/**
 * Task content in the UI locale: a task config may carry `translations` (docs/task-config.md, "Translations") with
 * a per-locale name, instructions (markdown) and display names of labels and form fields. Pure: the annotate and
 * validate pages use it where they show those (wired in the second pass); whatever a locale leaves out falls back.
 */
import { currentLocale } from "./runtime";

export interface TaskTranslation {
  name?: string | null;
  instructions?: string | null;
  labels?: Record<string, string>;
  fields?: Record<string, string>;
}

export interface TranslatableTask {
  name: string;
  instructions?: string | null;
  config?: { translations?: Record<string, TaskTranslation> | null } | null;
}

/** The translation for `locale`: the exact tag, else one of the same language ("pt-BR" for "pt"), else null. */
export function translationFor(
  translations: Record<string, TaskTranslation> | null | undefined,
  locale: string,
): TaskTranslation | null {
  if (!translations) return null;
  if (translations[locale]) return translations[locale];
  const language = locale.toLowerCase().split("-")[0];
  const key = Object.keys(translations).find((k) => k.toLowerCase().split("-")[0] === language);
  return key ? translations[key] : null;
}

export interface LocalizedTask {
  name: string;
  instructions: string | null;
  /** A label's display name: the translation, else `fallback` (the config's own display name), else the label. */
  label: (label: string, fallback?: string | null) => string;
  /** A form field's display name, the same way. */
  field: (name: string, fallback?: string | null) => string;
}

export function localizeTask(task: TranslatableTask, locale: string = currentLocale()): LocalizedTask {
  const t = translationFor(task.config?.translations, locale);
  return {
    name: t?.name || task.name,
    instructions: t?.instructions || task.instructions || null,
    label: (label, fallback) => t?.labels?.[label] || fallback || label,
    field: (name, fallback) => t?.fields?.[name] || fallback || name,
  };
}
