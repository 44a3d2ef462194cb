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
  provisionalTitle: "حكم مبدئي (دون اتصال)",
  working: "جارٍ سؤال النموذج المحلي…",
  guessFailed: "لم يتمكن النموذج المحلي من تقديم تخمين.",
  offlineGuess: "تخمين النموذج دون اتصال؛ يصل حكم الخادم عند مزامنة هذا المثال",
  outdated: "يتوفر نموذج أحدث لهذه الجولة. نزّله لتبقى التخمينات دون اتصال محدّثة.",
  update: "نزّل النموذج الأحدث",
  serverAgreed: "حكم الخادم يوافق التخمين دون اتصال.",
  progress: (done, total) => `${formatBytes(done)} من ${formatBytes(total)}`,
  download: (total, modelBytes, runtimeBytes) =>
    `التنزيل: ${formatBytes(total)} (النموذج ${formatBytes(modelBytes)} + محرّك العمل دون اتصال ${formatBytes(runtimeBytes)})`,
  downloadModel: (modelBytes) => `التنزيل: ${formatBytes(modelBytes)} للنموذج، إضافةً إلى محرّك العمل دون اتصال`,
  readyStored: (bytes) => `جاهز دون اتصال. المخزَّن على هذا الجهاز: ${formatBytes(bytes)}`,
  wouldSay: (label) => `سيقول النموذج على الأرجح «${label}»`,
  serverDiffered: (guess, server) =>
    `يقول نموذج الخادم «${server}»؛ وكان التخمين دون اتصال «${guess}». الحكم المعتمد هو حكم الخادم.`,
};
