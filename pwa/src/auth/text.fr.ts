import type { Translation } from "../i18n/catalogs";
import type { AUTH_EN } from "./text";

export const auth: Translation<typeof AUTH_EN> = {
  logIn: "Se connecter",
  signUp: "Créer un compte",
  expired: "Votre session a expiré. Reconnectez-vous pour continuer à envoyer vos exemples.",
  offline: "Vous êtes hors ligne : la connexion nécessite internet.",
  username: "Nom d’utilisateur",
  usernameHint: "3 à 32 lettres, chiffres, « _ », « . » ou « - ».",
  password: "Mot de passe",
  passwordHint: "Au moins 8 caractères.",
  wait: "Veuillez patienter…",
  newHere: "Nouveau ici ? ",
  haveAccount: "Vous avez déjà un compte ? ",
};
