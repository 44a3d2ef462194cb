import { formatNumber } from "../../i18n/format";
import type { Translation } from "../../i18n/catalogs";
import type { RUNS_EN } from "./text";

const f = (n: number) => formatNumber(n);

export const runs: Translation<typeof RUNS_EN> = {
  title: (n) => `تشغيل المولّد على الجولة ${f(n)}`,
  lead: "يكتب مولّد المهمة أمثلة ضد النموذج المستهدف لهذه الجولة دون إشراف. تدخل التحقق مثل أمثلة الأشخاص، موسومة بأنها من صنع الآلة.",
  count: "عدد الأمثلة المطلوب كتابتها",
  countHint: (max) => `عدد صحيح من 1 إلى ${f(max)}. يُحتسب كل مثال ضمن أمثلتك في الدقيقة.`,
  countInvalid: (max) => `أدخل عددًا صحيحًا من 1 إلى ${f(max)}.`,
  start: "بدء التشغيل",
  starting: "جارٍ البدء…",
  started: "بدأ التشغيل. تتحدّث أرقامه كل بضع ثوانٍ.",
  cancel: "إلغاء التشغيل",
  cancelled: "أُلغي التشغيل. ما كتبه يبقى.",
  wait: (left) => `أعد المحاولة بعد ${f(left)} ث.`,
  runsTitle: (n) => `عمليات التشغيل في الجولة ${f(n)}`,
  none: "لا توجد عمليات تشغيل بعد.",
  loading: "جارٍ تحميل عمليات التشغيل…",
  status: { QUEUED: "في الانتظار", RUNNING: "قيد التشغيل", DONE: "انتهى", FAILED: "فشل", CANCELLED: "أُلغي" },
  progress: (done, count) => `كُتب ${f(done)} من ${f(count)}`,
  figures: "الأرقام",
  colProduced: "المكتوبة",
  colFooled: "خدعت النموذج المستهدف",
  colValidated: "المُتحقَّق منها",
  colValidatedFooled: "المُتحقَّق منها والخادعة",
  colAwaiting: "بانتظار التحقق",
  colRefused: "المرشحون المرفوضون",
  byWhom: (who, generator) => `بدأه ${who}؛ المولّد ${generator}`,
  reason: (text) => `السبب: ${text}`,
};
