/**
 * Strings of a generative round's attack success (ASR per target model and per attack category; the owner page's
 * ASR wording), in one table (translate in text.es/fr/ar.ts). Interpolations are small functions taking values;
 * components never concatenate. "ASR" / "vASR" themselves are written in the components, as "MER" is.
 */
import { formatNumber } from "../i18n/format";
import { localized } from "../i18n/runtime";

const f = (n: number) => formatNumber(n);

export const ATTACK_EN = {
  // The round's counters (the chat page's side card)
  roundTitle: (n: number) => `Round ${f(n)}`,
  statConversations: "Conversations",
  statFailed: "Model failed",
  asrTitle: "Attack success rate",
  vasrTitle: "Validated attack success rate",
  // The tables
  targetsCaption: "Attack success per target model",
  categoriesCaption: "Attack success per attack category",
  scrolls: (caption: string) => `${caption} (scrolls sideways)`,
  colTarget: "Target model",
  colCategory: "Attack category",
  colConversations: "Conversations",
  colFailed: "Model failed",
  colAsr: "Attack success rate",
  colVasr: "Validated attack success rate",
  none: "No conversation of this round has been submitted yet.",
  loading: "Loading the attack success…",
  // The task owner page, for a generative task
  ratesTitle: "Attack success rate per round",
  chartTitle: "Attack success rate and validated attack success rate per round",
  chartRound: (round: number, asr: string, vasr: string) => `round ${f(round)}: ASR ${asr}, validated ASR ${vasr}`,
  legendAsr: "ASR (the model failed / conversations)",
  legendVasr: "Validated ASR (validated failures / conversations, dashed)",
  byRoundTitle: "Attack success per target model and category",
  roundHeading: (n: number) => `Round ${f(n)}`,
} as const;

export const ATTACK_TEXT = localized("attack", ATTACK_EN);
