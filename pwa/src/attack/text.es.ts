import { formatNumber } from "../i18n/format";
import type { Translation } from "../i18n/catalogs";
import type { ATTACK_EN } from "./text";

const f = (n: number) => formatNumber(n);

export const attack: Translation<typeof ATTACK_EN> = {
  roundTitle: (n) => `Ronda ${f(n)}`,
  statConversations: "Conversaciones",
  statFailed: "El modelo falló",
  asrTitle: "Tasa de éxito de los ataques",
  vasrTitle: "Tasa de éxito de los ataques validada",
  targetsCaption: "Éxito de los ataques por modelo objetivo",
  categoriesCaption: "Éxito de los ataques por categoría de ataque",
  scrolls: (caption) => `${caption} (se desplaza horizontalmente)`,
  colTarget: "Modelo objetivo",
  colCategory: "Categoría de ataque",
  colConversations: "Conversaciones",
  colFailed: "El modelo falló",
  colAsr: "Tasa de éxito de los ataques",
  colVasr: "Tasa de éxito validada",
  none: "Todavía no se ha enviado ninguna conversación en esta ronda.",
  loading: "Cargando el éxito de los ataques…",
  ratesTitle: "Tasa de éxito de los ataques por ronda",
  chartTitle: "Tasa de éxito de los ataques y tasa validada por ronda",
  chartRound: (round, asr, vasr) => `ronda ${f(round)}: ASR ${asr}, ASR validada ${vasr}`,
  legendAsr: "ASR (el modelo falló / conversaciones)",
  legendVasr: "ASR validada (fallos validados / conversaciones, discontinua)",
  byRoundTitle: "Éxito de los ataques por modelo objetivo y categoría",
  roundHeading: (n) => `Ronda ${f(n)}`,
};
