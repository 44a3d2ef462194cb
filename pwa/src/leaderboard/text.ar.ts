import type { Translation } from "../i18n/catalogs";
import { pluralFor } from "../i18n/format";
import type { LEADERBOARD_EN } from "./text";

const p = pluralFor("ar");

export const leaderboard: Translation<typeof LEADERBOARD_EN> = {
  indexTitle: "لوحات الصدارة",
  indexLead: "النماذج مرتبة حسب Dynascore: مزيج موزون تختاره أنت من الأداء والإنتاجية والذاكرة والمتانة والإنصاف.",
  openLeaderboard: "فتح لوحة الصدارة",
  title: (code) => `لوحة الصدارة: ${code}`,
  lead: "النماذج التي لها نتائج على كل مجموعات التقييم، مرتبة حسب Dynascore. حرّك منزلقًا لتعطي الوزن لما يهمك.",
  showingConfig: (name) => `يُعرض الإعداد المحفوظ «${name}».`,
  loadingBoard: "جارٍ تحميل لوحة الصدارة…",
  ranking: "جارٍ الترتيب…",
  ranked: (n) =>
    p(n, {
      zero: "لم يُرتَّب أي نموذج.",
      one: "نموذج واحد مرتب.",
      two: "نموذجان مرتبان.",
      few: "# نماذج مرتبة.",
      many: "# نموذجًا مرتبًا.",
      other: "# نموذج مرتب.",
    }),
  rankingTitle: "الترتيب",
  noneRanked: "لم يُقيَّم أي نموذج على كل مجموعات التقييم بعد.",
  tableRegion: "جدول الترتيب (يمرَّر أفقيًا)",
  tableCaption: "النماذج مرتبة حسب Dynascore",
  rank: "المرتبة",
  model: "النموذج",
  dynascore: "Dynascore",
  byOwner: (username) => ` من ${username}`,
  inTheLoop: (rounds) => ` · ضمن الحلقة في الجولة ${rounds}`,
  weightsRegion: "الأوزان",
  metricWeights: "أوزان المقاييس",
  loading: "جارٍ التحميل…",
  datasetWeights: "أوزان مجموعات البيانات",
  saveTitle: "حفظ هذه الأوزان",
  configName: "اسم الإعداد",
  saveConfig: "حفظ الإعداد",
  nameMissing: "أعطِ الإعداد اسمًا.",
  savedAs: (name) => `حُفظ باسم «${name}». شاركه: `,
  overlapTraining: (n) =>
    p(n, {
      zero: "لا صف يتداخل مع بيانات تدريب نموذج",
      one: "صف واحد يتداخل مع بيانات تدريب نموذج",
      two: "صفان يتداخلان مع بيانات تدريب نموذج",
      few: "# صفوف تتداخل مع بيانات تدريب نموذج",
      many: "# صفًا يتداخل مع بيانات تدريب نموذج",
      other: "# صف يتداخل مع بيانات تدريب نموذج",
    }),
  overlapCollected: (n) =>
    p(n, {
      zero: "لا صف يكرر أمثلة مجمَّعة",
      one: "صف واحد يكرر أمثلة مجمَّعة",
      two: "صفان يكرران أمثلة مجمَّعة",
      few: "# صفوف تكرر أمثلة مجمَّعة",
      many: "# صفًا يكرر أمثلة مجمَّعة",
      other: "# صف يكرر أمثلة مجمَّعة",
    }),
  noOverlap: "لم يُعثر على تداخل",
  shareOfScore: (percent) => `${percent} من النتيجة`,
  noEffectOneModel: "بلا أثر مع نموذج واحد: لا يُحتسب إلا الأداء حتى يمكن مقارنة نموذجين",
  noEffectNow: "بلا أثر الآن: النماذج المرتبة لا تختلف فيه (أو تتعادل كلها في الأداء)",
  perSecond: (n) => `${n}/ث`,
  gigabytes: (n) => `${n} غيغابايت`,
  metrics: { PERF: "الأداء", THROUGHPUT: "الإنتاجية", MEMORY: "الذاكرة", ROBUSTNESS: "المتانة", FAIRNESS: "الإنصاف" },
};
