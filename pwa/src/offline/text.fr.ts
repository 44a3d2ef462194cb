import type { Translation } from "../i18n/catalogs";
import { formatBytes, type OFFLINE_EN } from "./text";

export const offline: Translation<typeof OFFLINE_EN> = {
  heading: "Verdicts hors ligne",
  intro: "Téléchargez le modèle de cette manche pour obtenir un verdict provisoire hors ligne. Le verdict du serveur reste le verdict final.",
  prepare: "Préparer le mode hors ligne",
  preparing: "Téléchargement du modèle…",
  ready: "Prêt hors ligne",
  remove: "Supprimer le modèle hors ligne",
  removed: "Le modèle hors ligne a été supprimé de cet appareil.",
  unavailable: "Le modèle de cette manche ne peut pas fonctionner hors ligne.",
  needsConnection: "Connectez-vous pour télécharger le modèle.",
  failed: "Le modèle n’a pas pu être téléchargé. Réessayez quand la connexion sera meilleure.",
  provisionalLabel: "Provisoire",
  provisionalTitle: "Verdict provisoire (hors ligne)",
  working: "Interrogation du modèle hors ligne…",
  guessFailed: "Le modèle hors ligne n’a pas pu donner d’estimation.",
  offlineGuess: "l’estimation du modèle hors ligne ; le verdict du serveur arrive quand cet exemple est synchronisé",
  outdated: "Un modèle plus récent est disponible pour cette manche. Téléchargez-le pour garder des estimations hors ligne à jour.",
  update: "Télécharger le modèle plus récent",
  serverAgreed: "Le verdict du serveur confirme l’estimation hors ligne.",
  progress: (done, total) => `${formatBytes(done)} sur ${formatBytes(total)}`,
  download: (total, modelBytes, runtimeBytes) =>
    `Téléchargement : ${formatBytes(total)} (modèle ${formatBytes(modelBytes)} + moteur hors ligne ${formatBytes(runtimeBytes)})`,
  downloadModel: (modelBytes) => `Téléchargement : ${formatBytes(modelBytes)} pour le modèle, plus le moteur hors ligne`,
  readyStored: (bytes) => `Prêt hors ligne. Stocké sur cet appareil : ${formatBytes(bytes)}`,
  wouldSay: (label) => `le modèle dirait probablement « ${label} »`,
  serverDiffered: (guess, server) =>
    `Le modèle du serveur dit « ${server} » ; l’estimation hors ligne était « ${guess} ». C’est le verdict du serveur qui compte.`,
};
