import type { Translation } from "../i18n/catalogs";
import type { CLAIM_EN } from "./claims";
import type { VOTE_EN } from "./validations";

export const claims: Translation<typeof CLAIM_EN> = {
  question: "Le modèle s’est-il trompé ?",
  hint: "Comparez la réponse du modèle avec ce que vous vouliez dire. D’autres personnes vérifieront votre réponse.",
  yes: "Oui, il s’est trompé",
  no: "Non, il a vu juste",
  sending: "Envoi de votre réponse…",
  savedOffline: "Votre réponse est enregistrée sur cet appareil et sera envoyée quand vous serez en ligne.",
  refused: "Votre réponse a été refusée :",
  refusedBecause: (message) => `Votre réponse a été refusée : ${message}`.trimEnd(),
  sendAgain: "Renvoyer",
  outbox: (modelWasWrong) => `Votre réponse « ${modelWasWrong ? "le modèle s’est trompé" : "le modèle a vu juste"} » sur :`,
  validateWrong: "L’auteur dit que le modèle s’est trompé ici. Le modèle s’est-il vraiment trompé ?",
  validateRight: "L’auteur dit que le modèle a vu juste ici. Le modèle a-t-il vraiment vu juste ?",
  validateLead: "Chaque auteur dit si le modèle s’est trompé sur son exemple ; vérifiez-le. Votez avec les boutons ou les touches 1, 2 et 3.",
  voteYes: "Oui",
  voteNo: "Non",
};

export const votes: Translation<typeof VOTE_EN> = { CORRECT: "Correct", INCORRECT: "Incorrect", FLAGGED: "Signalé" };
