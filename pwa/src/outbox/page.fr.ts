import { formatNumber as f, pluralFor } from "../i18n/format";
import type { Translation } from "../i18n/catalogs";
import type { EXAMPLES_EN } from "../examples/text";
import type { OUTBOX_PAGE_EN } from "./text";

const plural = pluralFor("fr");

export const outboxPage: Translation<typeof OUTBOX_PAGE_EN> = {
  title: "Boîte d’envoi",
  lead: "Les exemples que vous envoyez et les votes que vous émettez restent sur cet appareil jusqu’à ce que le serveur ait répondu pour chacun. Ils partent automatiquement dès que vous êtes en ligne.",
  sendNow: "Envoyer maintenant",
  offline: "Hors ligne.",
  lastAttemptFailed: (error) => `La dernière tentative a échoué : ${error}`,
  waitingTitle: "En attente d’envoi",
  count: (n) => `(${f(n)})`,
  nothingWaits: "Rien n’attend.",
  failedTitle: (n) => `Envois impossibles (${f(n)})`,
  none: "Aucun.",
  sendAgain: "Renvoyer",
  discard: "Abandonner",
  syncedTitle: (n) => `Envoyés récemment (${f(n)})`,
  noneYet: "Aucun pour l’instant.",
  sentAt: (task) => `${task} · envoyé le {when}`,
  writtenAt: (task) => `${task} · écrit le {when}`,
  attempts: (n) => plural(n, { one: " · # tentative", other: " · # tentatives" }),
  modelSaid: " Le modèle a dit {label}.",
  otherAccount: (n) =>
    plural(n, {
      one: "# exemple de cet appareil appartient à un autre compte et sera envoyé quand ce compte se connectera ici.",
      other: "# exemples de cet appareil appartiennent à un autre compte et seront envoyés quand ce compte se connectera ici.",
    }),
  switchAccount: "Changer de compte",
  voteOn: (owner, summary) => `Votre vote {vote}${owner ? " (propriétaire)" : ""} sur : ${summary}`,
  lastProblem: (error) => `Dernier problème : ${error}`,
};

export const examples: Translation<typeof EXAMPLES_EN> = {
  title: "Mes exemples",
  loading: "Chargement…",
  savedCopy: (error) => `Exemples enregistrés sur cet appareil affichés : ${error}`,
  stillWaiting: (n) =>
    plural(n, { one: "# exemple attend encore sur cet appareil. ", other: "# exemples attendent encore sur cet appareil. " }),
  couldNotSend: (n) => `${f(n)} n’ont pas pu être envoyés. `,
  openOutbox: "Ouvrir la boîte d’envoi",
  noneYet: "Vous n’avez encore envoyé aucun exemple. {link}.",
  pickTask: "Choisissez une tâche",
  roundOf: (task, round) => `${task}, manche ${f(round)} · `,
  youSaid: "Vous avez dit {intended}",
  modelSaid: " ; le modèle a dit {model}",
  waitingForModel: (reason) => ` (en attente du modèle : ${reason})`,
  showMore: "Afficher plus",
  retracted: "Retiré",
  flagged: "Signalé",
};
