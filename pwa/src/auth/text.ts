/** Every string of the login / sign-up page, in one table (translate here: each locale's catalog has an `auth` table). */
import { localized } from "../i18n/runtime";

export const AUTH_EN = {
  logIn: "Log in",
  signUp: "Create an account",
  expired: "Your session has expired. Log in again to keep sending your examples.",
  offline: "You are offline: logging in needs a connection.",
  username: "Username",
  usernameHint: "3–32 letters, digits, “_”, “.” or “-”.",
  password: "Password",
  passwordHint: "At least 8 characters.",
  wait: "Please wait…",
  newHere: "New here? ",
  haveAccount: "Already have an account? ",
} as const;

export const AUTH_TEXT = localized("auth", AUTH_EN);
