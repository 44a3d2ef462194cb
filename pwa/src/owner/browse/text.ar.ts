import type { BulkAction } from "./filters";
import type { Translation } from "../../i18n/catalogs";
import { pluralFor } from "../../i18n/format";
import type { ValidationLabel } from "../../api/types";
import type { BROWSE_EN } from "./text";

const p = pluralFor("ar");
const examples = (n: number) =>
  p(n, { zero: "لا أمثلة", one: "مثالًا واحدًا", two: "مثالين", few: "# أمثلة", many: "# مثالًا", other: "# مثال" });
const LABELS: Record<ValidationLabel, string> = { CORRECT: "صحيح", INCORRECT: "خاطئ", FLAGGED: "مُبلَّغ عنه" };
const ACTIONS: Record<BulkAction, string> = {
  VALIDATE_CORRECT: "التحقق كصحيح",
  VALIDATE_INCORRECT: "التحقق كخاطئ",
  VALIDATE_FLAGGED: "التحقق كمُبلَّغ عنه",
  RESOLVE_FLAG: "حل البلاغ",
  RETRACT: "سحب",
};
const VERBS: Record<BulkAction, (n: number) => string> = {
  VALIDATE_CORRECT: (n) => `هل تتحقق من ${examples(n)} كصحيح؟`,
  VALIDATE_INCORRECT: (n) => `هل تتحقق من ${examples(n)} كخاطئ؟`,
  VALIDATE_FLAGGED: (n) => `هل تتحقق من ${examples(n)} كمُبلَّغ عنه؟`,
  RESOLVE_FLAG: (n) => `هل تحل بلاغ ${examples(n)}؟`,
  RETRACT: (n) => `هل تسحب ${examples(n)}؟`,
};
const EVENTS: Record<string, string> = {
  validate_correct: "تم التحقق كصحيح",
  validate_incorrect: "تم التحقق كخاطئ",
  validate_flagged: "تم التحقق كمُبلَّغ عنه",
  resolve_flag: "حُلَّ البلاغ",
  retract: "سُحب",
};

export const browse: Translation<typeof BROWSE_EN> = {
  backToTask: "صفحة المهمة",
  browseTitle: (task, round) => (round === null ? `أمثلة ${task}` : `أمثلة ${task}، الجولة ${round}`),
  browseLead: "ابحث فيما جمعته الجولة، وراجع الأمثلة، واتخذ إجراءً على عدة أمثلة معًا.",
  flagTitle: (task) => `قائمة البلاغات في ${task}`,
  flagLead: "أمثلة أبلغ عنها كتّابها أو أحالها إليك المتحققون. احسمها أو غيّر تصنيفها أو اسحبها.",
  flagQueueLink: "قائمة البلاغات",
  roundLabel: "الجولة",
  roundOption: (n) => `الجولة ${n}`,
  noRound: "لا توجد جولة لهذه المهمة بعد.",
  loading: "جارٍ التحميل…",
  loadingTask: "جارٍ تحميل المهمة…",
  missingTask: (code) => `لا توجد مهمة «${code}».`,
  filtersTitle: "البحث عن أمثلة",
  search: "البحث في النص",
  searchHint: "كلمات للبحث؛ \"عبارة\" بين علامتي تنصيص، و‎-كلمة لاستبعادها.",
  statuses: "الحالة",
  statusText: {
    PENDING: "قيد الانتظار", AWAITING_CLAIM: "بانتظار ردّ الكاتب", OPEN: "مفتوح للتحقق", CLOSED: "مغلق",
    VALIDATED: "تم التحقق منه", REJECTED: "مرفوض", FLAGGED: "مُبلَّغ عنه",
  },
  fooled: "خدع النموذج",
  flagged: "مُبلَّغ عنه",
  retracted: "مسحوب",
  choiceText: { any: "أي", yes: "نعم", no: "لا" },
  author: "الكاتب (اسم المستخدم)",
  from: "مكتوب منذ",
  to: "مكتوب حتى",
  apply: "بحث",
  reset: "مسح عوامل التصفية",
  problems: {
    textTooLong: "البحث طويل جدًا: 200 حرف على الأكثر.",
    authorTooLong: "اسم المستخدم طويل جدًا.",
    badDate: "أحد التواريخ غير صالح.",
    datesReversed: "اليوم الأول يأتي بعد اليوم الأخير.",
  },
  resultsTitle: "الأمثلة",
  shown: (n, more) =>
    `${p(n, { zero: "لم يُعرض أي مثال", one: "عُرض مثال واحد", two: "عُرض مثالان", few: "عُرضت # أمثلة", many: "عُرض # مثالًا", other: "عُرض # مثال" })}${more ? "، وهناك المزيد للتحميل" : ""}.`,
  none: "لا يوجد مثال مطابق.",
  noFlags: "لا يوجد مثال مُبلَّغ عنه بانتظار المراجعة.",
  loadMore: "تحميل المزيد",
  select: (text) => `تحديد «${text}»`,
  selectAll: "تحديد كل المعروض",
  selected: (n) =>
    p(n, { zero: "لم يُحدَّد أي مثال", one: "حُدِّد مثال واحد", two: "حُدِّد مثالان", few: "حُدِّدت # أمثلة", many: "حُدِّد # مثالًا", other: "حُدِّد # مثال" }),
  clearSelection: "مسح التحديد",
  label: "التصنيف",
  fooledTag: "خدع النموذج",
  notFooledTag: "لم يخدع النموذج",
  flaggedTag: "مُبلَّغ عنه",
  retractedTag: "مسحوب",
  flagReason: (reason) => `بلاغ: ${reason}`,
  written: (when) => `كُتب في ${when}`,
  details: "التفاصيل",
  detailsOf: (text) => `تفاصيل «${text}»`,
  bulkTitle: "إجراء على الأمثلة المحددة",
  action: "الإجراء",
  actionText: ACTIONS,
  note: "ملاحظة (اختيارية)",
  noteHint: "تُحفظ في سجل كل مثال.",
  applyAction: "تطبيق",
  confirm: (action, n) => VERBS[action](n),
  confirmYes: "نعم، نفّذ",
  cancel: "إلغاء",
  selectFirst: "حدِّد مثالًا واحدًا على الأقل أولًا.",
  outcomeDone: "تم",
  outcomeFailed: "لم يتم",
  summary: (action, done, failed) => `${ACTIONS[action]}: تم ${done}${failed ? `، ولم يتم ${failed}` : ""}.`,
  reviewTitle: "تفاصيل المثال",
  close: "إغلاق",
  input: "المُدخل",
  model: "النموذج",
  modelOf: (name, version) => (version ? `${name} (الإصدار ${version})` : name),
  status: "الحالة",
  goldAnswer: "الإجابة المرجعية",
  noGold: "ليس عنصرًا مرجعيًا.",
  votesTitle: "الأصوات",
  noVotes: "لا أصوات بعد.",
  vote: (username, label, mode) => `${username}: ${LABELS[label]}${mode === "OWNER" ? " (المالك)" : ""}`,
  historyTitle: "السجل",
  noHistory: "لا إجراء من المالك بعد.",
  event: (action, username) => `${EVENTS[action] ?? action} بواسطة ${username ?? "حساب محذوف"}`,
  labelText: (label) => LABELS[label],
};
