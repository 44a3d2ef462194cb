import { formatNumber } from "../i18n/format";
import type { Translation } from "../i18n/catalogs";
import type { SUGGEST_EN } from "./text";

const f = (n: number) => formatNumber(n);

export const suggest: Translation<typeof SUGGEST_EN> = {
  title: "Besoin d'inspiration ?",
  lead: "Demandez des suggestions, modifiez-en une et envoyez-la comme la vôtre. Votre exemple indique qu'il a été aidé.",
  inspire: "Inspirez-moi",
  perturb: "Modifier mon brouillon",
  perturbHint: "Écrivez d'abord un brouillon : de petites modifications sont essayées jusqu'à ce que le modèle change de réponse.",
  asking: "Demande de suggestions…",
  offline: "Les suggestions demandent une connexion.",
  none: "Aucune suggestion utilisable cette fois. Réessayer ?",
  listTitle: (n) => (n === 1 ? "1 suggestion" : `${f(n)} suggestions`),
  use: "Utiliser",
  useLabel: (n) => `Utiliser (suggestion ${f(n)})`,
  used: "Dans l'éditeur : modifiez-la, choisissez votre étiquette et envoyez.",
  meant: (label) => `Pensée comme : ${label}`,
  modelSays: (label) => `Le modèle dit : ${label}`,
  flipped: "Le modèle a changé de réponse",
  notFlipped: (percent) => `Pas de changement ; sa confiance est tombée à ${percent}`,
  edits: (what) => `Modifications : ${what}`,
  openingTitle: "En panne pour commencer ?",
  openingAsk: "Suggérer un premier message",
  openingUsed: "Dans la zone de message : modifiez-le et envoyez.",
  assisted: "Écrit à partir d'une suggestion",
  assistedEdited: "Écrit à partir d'une suggestion, modifiée",
  ownerTitle: "Avec et sans suggestions",
  roundHeading: (n) => `Manche ${f(n)}`,
  caption: (n) => `Manche ${f(n)} : exemples écrits avec et sans suggestion`,
  colWho: "Exemples",
  colCollected: "Collectés",
  colRate: "Taux de tromperie",
  colValidated: "Taux de tromperie validé",
  colMedian: "Temps médian jusqu'à un exemple qui trompe",
  rowUnassisted: "Sans aide",
  rowAssisted: "Avec aide",
  edited: (n) => `${f(n)} modifiés`,
  seconds: (s) => `${s} s`,
  noValue: "—",
  loading: "Chargement des chiffres avec et sans suggestions…",
};
