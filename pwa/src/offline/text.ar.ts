import type { Translation } from "../i18n/catalogs";
import { formatBytes, type OFFLINE_EN } from "./text";

export const offline: Translation<typeof OFFLINE_EN> = {
  heading: "أحكام دون اتصال",
  intro: "نزّل نموذج هذه الجولة لتحصل على حكم مبدئي وأنت غير متصل. يبقى حكم الخادم هو الحكم النهائي.",
  prepare: "التحضير للعمل دون اتصال",
  preparing: "جارٍ تنزيل النموذج…",
  ready: "جاهز دون اتصال",
  remove: "إزالة النموذج المحلي",
  removed: "أُزيل النموذج المحلي من هذا الجهاز.",
  unavailable: "لا يمكن تشغيل نموذج هذه الجولة دون اتصال.",
  needsConnection: "اتصل لتنزيل النموذج.",
  failed: "تعذّر تنزيل النموذج. حاول مجددًا عندما يتحسن الاتصال.",
  provisionalLabel: "مبدئي",
  working: "جارٍ سؤال النموذج المحلي…",
  guessFailed: "لم يتمكن النموذج المحلي من تقديم تخمين.",
  offlineGuess: "تخمين دون اتصال؛ القرار للخادم",
  outdated: "يتوفر نموذج أحدث لهذه الجولة. نزّله لتبقى التخمينات دون اتصال محدّثة.",
  update: "نزّل النموذج الأحدث",
  serverAgreed: "حكم الخادم يوافق التخمين دون اتصال.",
  size: (bytes) => `الحجم: ${formatBytes(bytes)}`,
  progress: (done, total) => `${formatBytes(done)} من ${formatBytes(total)}`,
  readySince: (bytes) => `جاهز دون اتصال (${formatBytes(bytes)} على هذا الجهاز)`,
  wouldSay: (label) => `سيقول النموذج على الأرجح «${label}»`,
  serverDiffered: (guess, server) =>
    `يقول نموذج الخادم «${server}»؛ وكان التخمين دون اتصال «${guess}». الحكم المعتمد هو حكم الخادم.`,
};
