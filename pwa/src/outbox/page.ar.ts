import { formatNumber as f, pluralFor } from "../i18n/format";
import type { Translation } from "../i18n/catalogs";
import type { EXAMPLES_EN } from "../examples/text";
import type { OUTBOX_PAGE_EN } from "./text";

const plural = pluralFor("ar");

export const outboxPage: Translation<typeof OUTBOX_PAGE_EN> = {
  title: "صندوق الصادر",
  lead: "تبقى الأمثلة التي ترسلها والأصوات التي تدلي بها على هذا الجهاز حتى يردّ الخادم على كل منها. وتُرسل تلقائيًا كلما كنت متصلًا.",
  sendNow: "أرسل الآن",
  offline: "غير متصل.",
  lastAttemptFailed: (error) => `فشلت المحاولة الأخيرة: ${error}`,
  waitingTitle: "بانتظار الإرسال",
  count: (n) => `(${f(n)})`,
  nothingWaits: "لا شيء بالانتظار.",
  failedTitle: (n) => `تعذّر إرسالها (${f(n)})`,
  none: "لا شيء.",
  sendAgain: "أرسل مجددًا",
  discard: "تجاهل",
  syncedTitle: (n) => `أُرسلت مؤخرًا (${f(n)})`,
  noneYet: "لا شيء بعد.",
  sentAt: (task) => `${task} · أُرسل {when}`,
  writtenAt: (task) => `${task} · كُتب {when}`,
  attempts: (n) =>
    plural(n, { zero: " · لا محاولات", one: " · محاولة واحدة", two: " · محاولتان", few: " · # محاولات", many: " · # محاولة", other: " · # محاولة" }),
  modelSaid: " قال النموذج {label}.",
  otherAccount: (n) =>
    plural(n, {
      zero: "لا أمثلة على هذا الجهاز لحساب آخر.",
      one: "مثال واحد على هذا الجهاز يخص حسابًا آخر وسيُرسل عندما يسجّل ذلك الحساب الدخول هنا.",
      two: "مثالان على هذا الجهاز يخصان حسابًا آخر وسيُرسلان عندما يسجّل ذلك الحساب الدخول هنا.",
      few: "# أمثلة على هذا الجهاز تخص حسابًا آخر وستُرسل عندما يسجّل ذلك الحساب الدخول هنا.",
      many: "# مثالًا على هذا الجهاز تخص حسابًا آخر وستُرسل عندما يسجّل ذلك الحساب الدخول هنا.",
      other: "# مثال على هذا الجهاز تخص حسابًا آخر وستُرسل عندما يسجّل ذلك الحساب الدخول هنا.",
    }),
  switchAccount: "بدّل الحساب",
  voteOn: (owner, summary) => `صوتك {vote}${owner ? " (المالك)" : ""} على: ${summary}`,
  lastProblem: (error) => `آخر مشكلة: ${error}`,
};

export const examples: Translation<typeof EXAMPLES_EN> = {
  title: "أمثلتي",
  loading: "جارٍ التحميل…",
  savedCopy: (error) => `تُعرض الأمثلة المحفوظة على هذا الجهاز: ${error}`,
  stillWaiting: (n) =>
    plural(n, {
      zero: "لا أمثلة بالانتظار على هذا الجهاز. ",
      one: "مثال واحد ما زال بالانتظار على هذا الجهاز. ",
      two: "مثالان ما زالا بالانتظار على هذا الجهاز. ",
      few: "# أمثلة ما زالت بالانتظار على هذا الجهاز. ",
      many: "# مثالًا ما زال بالانتظار على هذا الجهاز. ",
      other: "# مثال ما زال بالانتظار على هذا الجهاز. ",
    }),
  couldNotSend: (n) => `تعذّر إرسال ${f(n)}. `,
  openOutbox: "افتح صندوق الصادر",
  noneYet: "لم ترسل أي أمثلة بعد. {link}.",
  pickTask: "اختر مهمة",
  roundOf: (task, round) => `${task}، الجولة ${f(round)} · `,
  youSaid: "قلتَ {intended}",
  modelSaid: "؛ وقال النموذج {model}",
  waitingForModel: (reason) => ` (بانتظار النموذج: ${reason})`,
  showMore: "اعرض المزيد",
  retracted: "مسحوب",
  flagged: "مُبلَّغ عنه",
};
