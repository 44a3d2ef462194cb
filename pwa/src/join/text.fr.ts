import type { Translation } from "../i18n/catalogs";
import { pluralFor } from "../i18n/format";
import type { JOIN_EN } from "./text";

const p = pluralFor("fr");

export const join: Translation<typeof JOIN_EN> = {
  joining: "Ouverture de la campagne…",
  retry: "Réessayer",
  offlineJoin: "Vous êtes hors ligne. Connectez-vous à internet pour commencer cette campagne.",
  badLink: "Ce lien ne fonctionne pas.",
  nextTitle: "Que faire",
  backToPlatform: (platform) => `Retournez sur ${platform} et rouvrez l’étude depuis là : son lien porte les informations dont cette page a besoin.`,
  backLink: (platform) => `Aller sur ${platform}`,
  backNoPlatform: "Revenez là où vous avez trouvé ce lien et rouvrez-le depuis là.",
  contactResearcher: (platform) =>
    platform
      ? `Si cela ne fonctionne toujours pas, écrivez au chercheur par la messagerie de ${platform} en lui indiquant ce que dit cette page.`
      : "Si cela ne fonctionne toujours pas, écrivez au chercheur qui vous a donné ce lien en lui indiquant ce que dit cette page.",
  earnedTotal: (earned, pending) => `Vous avez gagné ${earned} dans cette campagne (${pending} pas encore payé).`,
  payHint: "Les primes s’ajoutent une fois vos exemples validés ; la rémunération de base une fois que vous avez terminé.",
  previewTitle: "Aperçu",
  previewLead: "Voici à quoi ressemble la tâche.",
  acceptHit: "Acceptez le HIT pour commencer.",
  previewNote: "Rien n’est enregistré tant que vous n’avez pas accepté le HIT.",
  consentTitle: "Consentement",
  consentLead: "Veuillez lire ceci avant de commencer.",
  consentAccept: "J’accepte, continuer",
  consentDecline: "Si vous n’êtes pas d’accord, fermez cette page et rendez l’étude sur votre plateforme.",
  quizTitle: "Un court questionnaire",
  quizLead: (passMark, total) =>
    passMark === null
      ? p(total, { one: "Répondez à la question.", other: "Répondez aux # questions." })
      : `Répondez correctement à au moins ${passMark} ${p(total, { one: "question sur #", other: "questions sur #" })} pour commencer.`,
  attemptsLeft: (n) => p(n, { one: "Il vous reste # essai.", other: "Il vous reste # essais." }),
  question: (i, total) => `Question ${i} sur ${total}`,
  answerLabel: "Votre réponse",
  chooseOne: "Choisissez une réponse.",
  submitQuiz: "Envoyer mes réponses",
  quizFailed: (score, total, left) =>
    `Vous avez ${score} bonnes réponses sur ${total}. ${p(left, { one: "Il vous reste # essai", other: "Il vous reste # essais" })} : réessayez.`,
  quizPassed: (score, total) => `Vous avez ${score} bonnes réponses sur ${total} : vous pouvez commencer.`,
  quotaTitle: "Votre travail",
  examplesToday: (n) => p(n, { one: "# exemple restant aujourd’hui", other: "# exemples restants aujourd’hui" }),
  examplesTotal: (n) => p(n, { one: "# exemple restant dans cette campagne", other: "# exemples restants dans cette campagne" }),
  validationsToday: (n) => p(n, { one: "# validation restante aujourd’hui", other: "# validations restantes aujourd’hui" }),
  validationsTotal: (n) =>
    p(n, { one: "# validation restante dans cette campagne", other: "# validations restantes dans cette campagne" }),
  noLimit: "Pas de limite au nombre d’exemples.",
  earned: (earned, pending) => `Gagné jusqu’ici : ${earned} (${pending} pas encore payé).`,
  instructions: "Consignes",
  finish: "Terminer",
  finishHint: "Appuyez sur Terminer quand vous avez fini : vous recevrez votre code de fin.",
  finishing: "Finalisation…",
  offlineFinish: "Connectez-vous à internet pour terminer : vos exemples non envoyés partent d’abord.",
  completionTitle: "Merci !",
  screenedTitle: "Merci pour votre temps",
  completionLead: "Votre code de fin :",
  screenedLead: "Le questionnaire ne s’est pas assez bien passé pour continuer : l’étude s’arrête ici. Votre code :",
  quotaReached: "Vous avez atteint le nombre d’exemples de cette campagne.",
  goBackProlific: "Retourner sur Prolific",
  goBack: "Retourner sur votre plateforme",
  submitMturk: "Soumettre le HIT",
  redirecting: "Retour en cours…",
  copyCode: "Copiez ce code dans votre plateforme si elle le demande.",
  copy: "Copier le code",
  copied: "Copié.",
};
