import { pluralFor } from "../i18n/format";
import type { Translation } from "../i18n/catalogs";
import type { TRANSCRIPT_EN } from "./text";

const plural = pluralFor("ar");

export const transcript: Translation<typeof TRANSCRIPT_EN> = {
  label: "المحادثة",
  noMessages: "لا رسائل في هذه المحادثة.",
  author: "الكاتب",
  you: "أنت",
  model: "النموذج",
  systemTitle: "ما قيل للنموذج أولًا",
  categoriesTitle: "فئات الهجوم",
  emptyReply: "(بلا نص)",
  stoppedNote: "أوقف الكاتب هذا الرد؛ ويُحتفظ بالنص المكتوب حتى تلك اللحظة.",
  failedNote: "فشل هذا الرد؛ ويُحتفظ بالنص المكتوب حتى تلك اللحظة.",
  judgeScore: (score, threshold) => `درجة الحَكَم ${score} (يفشل النموذج عند ${threshold} أو أكثر)`,
  judgeScoreOnly: (score) => `درجة الحَكَم ${score}`,
  judgeFailed: "يُعدّ فشلًا",
  judgePassed: "ليس فشلًا",
  previewLabel: "آخر تبادل",
  showAll: (n) =>
    plural(n, {
      zero: "أظهر المحادثة كاملة",
      one: "أظهر المحادثة كاملة (رسالة أخرى واحدة)",
      two: "أظهر المحادثة كاملة (رسالتان أخريان)",
      few: "أظهر المحادثة كاملة (# رسائل أخرى)",
      many: "أظهر المحادثة كاملة (# رسالة أخرى)",
      other: "أظهر المحادثة كاملة (# رسالة أخرى)",
    }),
  showWhole: "أظهر المحادثة كاملة",
  showLess: "أظهر آخر تبادل فقط",
};
