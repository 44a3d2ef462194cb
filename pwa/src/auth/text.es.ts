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
};
