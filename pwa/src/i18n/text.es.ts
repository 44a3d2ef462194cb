import type { Translation } from "./catalogs";
import type { I18N_EN } from "./text";

export const i18n: Translation<typeof I18N_EN> = {
  label: "Idioma",
  hint: "El idioma de la aplicación. Las tareas conservan el idioma en que se escribieron.",
};
