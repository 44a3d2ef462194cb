import type { Translation } from "../i18n/catalogs";
import type { NETWORK_EN } from "./text";

export const network: Translation<typeof NETWORK_EN> = {
  timedOut: "Le serveur n’a pas répondu à temps.",
  unreachable: "Vous êtes hors ligne ou le serveur est injoignable.",
  unavailable: (status) => `Le serveur est indisponible (HTTP ${status}).`,
  uploadCancelled: "L’envoi a été annulé.",
  uploadTooLong: "L’envoi a pris trop de temps.",
  fileTooLarge: "Le fichier est trop volumineux pour le serveur.",
  cutOff: (status) => `La réponse a été coupée (HTTP ${status}).`,
  empty: (status) => `Réponse vide (HTTP ${status}).`,
};
