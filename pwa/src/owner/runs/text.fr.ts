import { formatNumber } from "../../i18n/format";
import type { Translation } from "../../i18n/catalogs";
import type { RUNS_EN } from "./text";

const f = (n: number) => formatNumber(n);

export const runs: Translation<typeof RUNS_EN> = {
  title: (n) => `Lancer le générateur sur la manche ${f(n)}`,
  lead: "Le générateur de la tâche écrit des exemples contre le modèle cible de cette manche, sans surveillance. Ils passent en validation comme ceux des personnes, marqués comme faits par la machine.",
  count: "Exemples à écrire",
  countHint: (max) => `Un nombre entier de 1 à ${f(max)}. Chacun compte dans vos exemples par minute.`,
  countInvalid: (max) => `Saisissez un nombre entier de 1 à ${f(max)}.`,
  start: "Lancer l'exécution",
  starting: "Lancement…",
  started: "L'exécution a commencé. Ses chiffres se mettent à jour toutes les quelques secondes.",
  cancel: "Annuler l'exécution",
  cancelled: "L'exécution a été annulée. Ce qu'elle a écrit reste.",
  wait: (left) => `Réessayez dans ${f(left)} s.`,
  runsTitle: (n) => `Exécutions sur la manche ${f(n)}`,
  none: "Aucune exécution pour l'instant.",
  loading: "Chargement des exécutions…",
  status: { QUEUED: "En attente", RUNNING: "En cours", DONE: "Terminée", FAILED: "Échouée", CANCELLED: "Annulée" },
  progress: (done, count) => `${f(done)} sur ${f(count)} écrits`,
  figures: "Chiffres",
  colProduced: "Écrits",
  colFooled: "Ont trompé la cible",
  colValidated: "Validés",
  colValidatedFooled: "Validés et trompeurs",
  colAwaiting: "En attente de validation",
  colRefused: "Candidats refusés",
  byWhom: (who, generator) => `Lancée par ${who} ; générateur ${generator}`,
  reason: (text) => `Raison : ${text}`,
};
