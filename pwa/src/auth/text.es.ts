import type { Translation } from "../i18n/catalogs";
import type { AUTH_EN } from "./text";

export const auth: Translation<typeof AUTH_EN> = {
  logIn: "Iniciar sesión",
  signUp: "Crear una cuenta",
  expired: "Tu sesión ha caducado. Vuelve a iniciar sesión para seguir enviando tus ejemplos.",
  offline: "No tienes conexión: para iniciar sesión hace falta internet.",
  username: "Nombre de usuario",
  usernameHint: "De 3 a 32 letras, cifras, «_», «.» o «-».",
  password: "Contraseña",
  passwordHint: "Al menos 8 caracteres.",
  wait: "Espera, por favor…",
  newHere: "¿Eres nuevo? ",
  haveAccount: "¿Ya tienes una cuenta? ",
  aboutLabel: "Acerca de Dynabench",
  aboutLead: "Dynabench es una plataforma abierta para poner a prueba modelos de IA con personas: intentas que un modelo dé una respuesta equivocada, y cada ejemplo en que falla muestra dónde aún debe mejorar.",
  aboutAnnotate: "Anotar: escribe ejemplos que engañen al modelo, con conexión o sin ella desde tu teléfono.",
  aboutValidate: "Validar: revisa los ejemplos de otras personas y di si el modelo de verdad se equivocó.",
  aboutCompare: "Comparar modelos: mira cómo se clasifican y da peso a lo que te importa.",
  aboutStart: "Crea una cuenta para empezar",
  aboutLogIn: "Iniciar sesión",
};
