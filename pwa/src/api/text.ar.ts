import type { Translation } from "../i18n/catalogs";
import type { NETWORK_EN } from "./text";

export const network: Translation<typeof NETWORK_EN> = {
  timedOut: "لم يردّ الخادم في الوقت المحدد.",
  unreachable: "أنت غير متصل أو تعذّر الوصول إلى الخادم.",
  unavailable: (status) => `الخادم غير متاح (HTTP ${status}).`,
  uploadCancelled: "أُلغي الرفع.",
  uploadTooLong: "استغرق الرفع وقتًا طويلًا.",
  fileTooLarge: "الملف أكبر مما يقبله الخادم.",
  cutOff: (status) => `وصل الرد منقوصًا (HTTP ${status}).`,
  empty: (status) => `رد فارغ (HTTP ${status}).`,
};
