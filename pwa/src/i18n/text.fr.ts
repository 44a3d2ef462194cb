import type { Translation } from "./catalogs";
import type { I18N_EN } from "./text";

export const i18n: Translation<typeof I18N_EN> = {
  label: "Langue",
  hint: "La langue de l’application. Les tâches gardent la langue dans laquelle elles ont été écrites.",
};
