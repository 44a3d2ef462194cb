import type { Translation } from "./catalogs";
import type { I18N_EN } from "./text";

export const i18n: Translation<typeof I18N_EN> = {
  label: "اللغة",
  hint: "لغة التطبيق. تبقى المهام باللغة التي كُتبت بها.",
};
