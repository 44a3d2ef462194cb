import type { Translation } from "../i18n/catalogs";
import { pluralFor } from "../i18n/format";
import type { JOIN_EN } from "./text";

const p = pluralFor("ar");

const left = (n: number, what: { one: string; two: string; few: string; many: string }, where: string) =>
  p(n, {
    zero: `لم يتبقَّ شيء ${where}`,
    one: `تبقّى ${what.one} ${where}`,
    two: `تبقّى ${what.two} ${where}`,
    few: `تبقّى # ${what.few} ${where}`,
    many: `تبقّى # ${what.many} ${where}`,
    other: `تبقّى # ${what.one.split(" ")[0]} ${where}`,
  });

const EXAMPLES = { one: "مثال واحد", two: "مثالان", few: "أمثلة", many: "مثالًا" };
const VALIDATIONS = { one: "تحقق واحد", two: "تحققان", few: "عمليات تحقق", many: "عملية تحقق" };
const ATTEMPTS = {
  zero: "لم تتبقَّ أي محاولة",
  one: "تبقّت محاولة واحدة",
  two: "تبقّت محاولتان",
  few: "تبقّت # محاولات",
  many: "تبقّت # محاولة",
  other: "تبقّت # محاولة",
};

export const join: Translation<typeof JOIN_EN> = {
  joining: "جارٍ فتح الحملة…",
  retry: "إعادة المحاولة",
  offlineJoin: "أنت غير متصل. اتصل بالإنترنت لبدء هذه الحملة.",
  badLink: "هذا الرابط لا يعمل.",
  nextTitle: "ما يمكنك فعله",
  backToPlatform: (platform) => `عُد إلى ${platform} وافتح الدراسة من هناك مجددًا: رابطها يحمل البيانات التي تحتاجها هذه الصفحة.`,
  backLink: (platform) => `الذهاب إلى ${platform}`,
  backNoPlatform: "عُد إلى حيث وجدت هذا الرابط وافتحه من هناك مجددًا.",
  contactResearcher: (platform) =>
    platform
      ? `إن لم ينجح ذلك، راسل الباحث عبر رسائل ${platform} وأخبره بما تقوله هذه الصفحة.`
      : "إن لم ينجح ذلك، راسل الباحث الذي أعطاك هذا الرابط وأخبره بما تقوله هذه الصفحة.",
  earnedTotal: (earned, pending) => `ربحت ${earned} في هذه الحملة (${pending} لم يُدفع بعد).`,
  payHint: "تُضاف المكافآت حين يُتحقق من أمثلتك، والأجر الأساسي حين تُنهي.",
  previewTitle: "معاينة",
  previewLead: "هكذا تبدو المهمة.",
  acceptHit: "اقبل الـHIT للبدء.",
  previewNote: "لا يُسجَّل شيء حتى تقبل الـHIT.",
  consentTitle: "الموافقة",
  consentLead: "يرجى قراءة هذا قبل أن تبدأ.",
  consentAccept: "أوافق، متابعة",
  consentDecline: "إن لم توافق، أغلق هذه الصفحة وأعد الدراسة على منصتك.",
  quizTitle: "اختبار قصير",
  quizLead: (passMark, total) =>
    passMark === null
      ? p(total, { one: "أجب عن السؤال.", two: "أجب عن السؤالين.", few: "أجب عن الأسئلة الـ#.", other: "أجب عن الأسئلة الـ# كلها." })
      : `أجب إجابة صحيحة عن ${passMark} من ${total} أسئلة على الأقل لتبدأ.`,
  attemptsLeft: (n) => `${p(n, ATTEMPTS)}.`,
  question: (i, total) => `السؤال ${i} من ${total}`,
  answerLabel: "إجابتك",
  chooseOne: "اختر إجابة.",
  submitQuiz: "إرسال إجاباتي",
  quizFailed: (score, total, n) => `أصبت في ${score} من ${total}. ${p(n, ATTEMPTS)}: حاول مرة أخرى.`,
  quizPassed: (score, total) => `أصبت في ${score} من ${total}: يمكنك البدء.`,
  quotaTitle: "عملك",
  examplesToday: (n) => left(n, EXAMPLES, "اليوم"),
  examplesTotal: (n) => left(n, EXAMPLES, "في هذه الحملة"),
  validationsToday: (n) => left(n, VALIDATIONS, "اليوم"),
  validationsTotal: (n) => left(n, VALIDATIONS, "في هذه الحملة"),
  noLimit: "لا حد لعدد الأمثلة.",
  earned: (earned, pending) => `ما كسبته حتى الآن: ${earned} (${pending} لم يُدفع بعد).`,
  instructions: "التعليمات",
  finish: "إنهاء",
  finishHint: "اضغط «إنهاء» عندما تنتهي: ستحصل على رمز الإتمام.",
  finishing: "جارٍ الإنهاء…",
  offlineFinish: "اتصل بالإنترنت للإنهاء: تُرسَل أمثلتك غير المرسلة أولًا.",
  completionTitle: "شكرًا لك!",
  screenedTitle: "شكرًا على وقتك",
  completionLead: "رمز الإتمام الخاص بك:",
  screenedLead: "لم تكن نتيجة الاختبار كافية للمتابعة، لذا تنتهي الدراسة هنا. رمزك:",
  quotaReached: "لقد بلغت عدد الأمثلة المحدد لهذه الحملة.",
  goBackProlific: "العودة إلى Prolific",
  goBack: "العودة إلى منصتك",
  submitMturk: "إرسال الـHIT",
  redirecting: "جارٍ إعادتك…",
  copyCode: "انسخ هذا الرمز في منصتك إن طلبته.",
  copy: "نسخ الرمز",
  copied: "تم النسخ.",
};
