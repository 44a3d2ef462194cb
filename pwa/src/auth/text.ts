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
  // What the site is, for a signed-out visitor (above the form).
  aboutLabel: "About Dynabench",
  aboutLead: "Dynabench is an open platform for testing AI models with people in the loop: you try to make a model give a wrong answer, and each example it gets wrong shows where it still needs to improve.",
  aboutAnnotate: "Annotate: write examples that fool the model — online, or offline on your phone.",
  aboutValidate: "Validate: check other people's examples and say whether the model really got them wrong.",
  aboutCompare: "Compare models: see how they rank on the leaderboards and weigh what matters to you.",
  aboutStart: "Create an account to start",
  aboutLogIn: "Log in",
} as const;

export const AUTH_TEXT = localized("auth", AUTH_EN);
