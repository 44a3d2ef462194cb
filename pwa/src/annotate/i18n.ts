/** The annotate page's instruction strings, by locale (English is the fallback for any missing key). */

const en = {
  "instructions.heading": "Instructions",
  "instructions.show": "Instructions",
  "instructions.hide": "Hide instructions",
  "instructions.first": "Read these before your first example of this task.",
  "instructions.start": "Start writing",
  "instructions.close": "Close",
} as const;

export type MessageKey = keyof typeof en;

const catalogs: Record<string, Partial<Record<MessageKey, string>>> = {
  en,
  fr: {
    "instructions.heading": "Consignes",
    "instructions.show": "Consignes",
    "instructions.hide": "Masquer les consignes",
    "instructions.first": "Lisez-les avant votre premier exemple pour cette tâche.",
    "instructions.start": "Commencer",
    "instructions.close": "Fermer",
  },
};

/** The message in the first of `languages` (e.g. navigator.languages) that has it, else English. */
export function t(key: MessageKey, languages: readonly string[] = browserLanguages()): string {
  for (const language of languages) {
    const message = catalogs[language.toLowerCase().split("-")[0]]?.[key];
    if (message) return message;
  }
  return en[key];
}

function browserLanguages(): readonly string[] {
  return typeof navigator !== "undefined" && navigator.languages ? navigator.languages : ["en"];
}
