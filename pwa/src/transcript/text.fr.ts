import { pluralFor } from "../i18n/format";
import type { Translation } from "../i18n/catalogs";
import type { TRANSCRIPT_EN } from "./text";

const plural = pluralFor("fr");

export const transcript: Translation<typeof TRANSCRIPT_EN> = {
  label: "Conversation avec le modèle",
  noMessages: "Cette conversation n’a aucun message.",
  author: "Auteur",
  you: "Vous",
  model: "Modèle",
  systemTitle: "Ce que le modèle a reçu d’abord",
  categoriesTitle: "Catégories d’attaque",
  emptyReply: "(aucun texte)",
  stoppedNote: "L’auteur a arrêté cette réponse ; le texte écrit jusque-là est conservé.",
  failedNote: "Cette réponse a échoué ; le texte écrit jusque-là est conservé.",
  judgeScore: (score, threshold) => `Score du juge ${score} (le modèle échoue à partir de ${threshold})`,
  judgeScoreOnly: (score) => `Score du juge ${score}`,
  judgeFailed: "compte comme un échec",
  judgePassed: "pas un échec",
  previewLabel: "Dernier échange",
  showAll: (n) =>
    plural(n, { one: "Voir toute la conversation (# message de plus)", other: "Voir toute la conversation (# messages de plus)" }),
  showWhole: "Voir toute la conversation",
  showLess: "Voir seulement le dernier échange",
};
