import { formatNumber } from "../i18n/format";
import type { Translation } from "../i18n/catalogs";
import type { SUGGEST_EN } from "./text";

const f = (n: number) => formatNumber(n);

export const suggest: Translation<typeof SUGGEST_EN> = {
  title: "هل تحتاج إلى إلهام؟",
  lead: "اطلب اقتراحات، ثم عدّل أحدها وأرسله كمثالك. يسجّل مثالك أنه كُتب بمساعدة.",
  inspire: "ألهمني",
  perturb: "عدّل مسودتي",
  perturbHint: "اكتب مسودة أولًا: تُجرَّب تعديلات صغيرة عليها حتى يغيّر النموذج إجابته.",
  asking: "جارٍ طلب الاقتراحات…",
  offline: "تحتاج الاقتراحات إلى اتصال.",
  none: "لا يوجد اقتراح صالح هذه المرة. هل تحاول مجددًا؟",
  listTitle: (n) => `الاقتراحات: ${f(n)}`,
  use: "استخدم هذا",
  useLabel: (n) => `استخدم هذا (الاقتراح ${f(n)})`,
  used: "في المحرّر: عدّله واختر تصنيفك ثم أرسله.",
  meant: (label) => `المقصود: ${label}`,
  modelSays: (label) => `يقول النموذج: ${label}`,
  flipped: "غيّر النموذج إجابته",
  notFlipped: (percent) => `لم تتغيّر؛ انخفضت ثقته إلى ${percent}`,
  edits: (what) => `التعديلات: ${what}`,
  openingTitle: "لا تعرف كيف تبدأ؟",
  openingAsk: "اقترح رسالة أولى",
  openingUsed: "في مربع الرسالة: عدّلها ثم أرسلها.",
  assisted: "كُتب انطلاقًا من اقتراح",
  assistedEdited: "كُتب انطلاقًا من اقتراح، مع تعديل",
  ownerTitle: "مع الاقتراحات وبدونها",
  roundHeading: (n) => `الجولة ${f(n)}`,
  caption: (n) => `الجولة ${f(n)}: أمثلة كُتبت مع اقتراح وبدونه`,
  colWho: "الأمثلة",
  colCollected: "المجمّعة",
  colRate: "معدل الخداع",
  colValidated: "معدل الخداع المُتحقَّق منه",
  colMedian: "الوقت الوسيط حتى مثال خادع",
  rowUnassisted: "بدون مساعدة",
  rowAssisted: "بمساعدة",
  edited: (n) => `المعدّلة: ${f(n)}`,
  seconds: (s) => `${s} ث`,
  noValue: "—",
  loading: "جارٍ تحميل الأرقام مع الاقتراحات وبدونها…",
};
