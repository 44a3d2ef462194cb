import { formatNumber } from "../i18n/format";
import type { Translation } from "../i18n/catalogs";
import type { ATTACK_EN } from "./text";

const f = (n: number) => formatNumber(n);

export const attack: Translation<typeof ATTACK_EN> = {
  roundTitle: (n) => `الجولة ${f(n)}`,
  statConversations: "المحادثات",
  statFailed: "أخفق النموذج",
  asrTitle: "معدل نجاح الهجمات",
  vasrTitle: "معدل نجاح الهجمات بعد التحقق",
  targetsCaption: "نجاح الهجمات حسب النموذج المستهدف",
  categoriesCaption: "نجاح الهجمات حسب فئة الهجوم",
  scrolls: (caption) => `${caption} (يمكن تمريره أفقيًا)`,
  colTarget: "النموذج المستهدف",
  colCategory: "فئة الهجوم",
  colConversations: "المحادثات",
  colFailed: "أخفق النموذج",
  colAsr: "معدل نجاح الهجمات",
  colVasr: "المعدل بعد التحقق",
  none: "لم تُرسل أي محادثة في هذه الجولة بعد.",
  loading: "جارٍ تحميل نجاح الهجمات…",
  ratesTitle: "معدل نجاح الهجمات لكل جولة",
  chartTitle: "معدل نجاح الهجمات والمعدل بعد التحقق لكل جولة",
  chartRound: (round, asr, vasr) => `الجولة ${f(round)}: ASR ${asr}، ASR بعد التحقق ${vasr}`,
  legendAsr: "ASR (أخفق النموذج / المحادثات)",
  legendVasr: "ASR بعد التحقق (الإخفاقات المُتحقَّق منها / المحادثات، خط متقطع)",
  byRoundTitle: "نجاح الهجمات حسب النموذج المستهدف والفئة",
  roundHeading: (n) => `الجولة ${f(n)}`,
};
