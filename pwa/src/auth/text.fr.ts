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
  aboutLabel: "À propos de Dynabench",
  aboutLead: "Dynabench est une plateforme ouverte pour mettre des modèles d’IA à l’épreuve avec des personnes : vous essayez de faire donner une mauvaise réponse à un modèle, et chaque exemple où il se trompe montre ce qu’il doit encore améliorer.",
  aboutAnnotate: "Annoter : écrivez des exemples qui trompent le modèle, en ligne ou hors ligne sur votre téléphone.",
  aboutValidate: "Valider : relisez les exemples des autres et dites si le modèle s’est vraiment trompé.",
  aboutCompare: "Comparer des modèles : voyez leur classement et pondérez ce qui compte pour vous.",
  aboutStart: "Créez un compte pour commencer",
  aboutLogIn: "Se connecter",
};
