/** The language picker's strings (translate here: each locale's catalog has an `i18n` table). */
import { localized } from "./runtime";

export const I18N_EN = {
  label: "Language",
  hint: "The app's language. Tasks keep the language they were written in.",
} as const;

export const I18N_TEXT = localized("i18n", I18N_EN);
