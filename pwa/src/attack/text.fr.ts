import { formatNumber } from "../i18n/format";
import type { Translation } from "../i18n/catalogs";
import type { ATTACK_EN } from "./text";

const f = (n: number) => formatNumber(n);

export const attack: Translation<typeof ATTACK_EN> = {
  roundTitle: (n) => `Manche ${f(n)}`,
  statConversations: "Conversations envoyées",
  statFailed: "Le modèle a échoué",
  asrTitle: "Taux de réussite des attaques",
  vasrTitle: "Taux de réussite des attaques validé",
  targetsCaption: "Réussite des attaques par modèle cible",
  categoriesCaption: "Réussite des attaques par catégorie d’attaque",
  scrolls: (caption) => `${caption} (défile horizontalement)`,
  colTarget: "Modèle cible",
  colCategory: "Catégorie d’attaque",
  colConversations: "Conversations envoyées",
  colFailed: "Le modèle a échoué",
  colAsr: "Taux de réussite des attaques",
  colVasr: "Taux de réussite validé",
  none: "Aucune conversation de cette manche n’a encore été envoyée.",
  loading: "Chargement de la réussite des attaques…",
  ratesTitle: "Taux de réussite des attaques par manche",
  chartTitle: "Taux de réussite des attaques et taux validé par manche",
  chartRound: (round, asr, vasr) => `manche ${f(round)} : ASR ${asr}, ASR validé ${vasr}`,
  legendAsr: "ASR (le modèle a échoué / conversations)",
  legendVasr: "ASR validé (échecs validés / conversations, en tirets)",
  byRoundTitle: "Réussite des attaques par modèle cible et par catégorie",
  roundHeading: (n) => `Manche ${f(n)}`,
};
