/** Every string of the account pages (email, verification, password reset), in one table (translate here). */
import { localized } from "../i18n/runtime";
import type { PasswordProblem } from "./recovery";

export const ACCOUNT_EN = {
  accountTitle: "Your account",
  loading: "Loading…",
  signedInAs: (username: string) => `Signed in as ${username}.`,
  emailTitle: "Email",
  emailLead: "Optional. A verified address lets you reset a forgotten password and receive notifications by email.",
  emailLabel: "Email address",
  emailNone: "No email address yet.",
  verified: "Verified",
  unverified: "Not verified yet: open the link we mailed to it.",
  saveEmail: "Save the address",
  removeEmail: "Remove the address",
  verificationSent: (email: string) => `We mailed a confirmation link to ${email}. It works once, within a day.`,
  emailSavedNoMail: "Saved. This server sends no mail, so the address stays unverified.",
  emailRemoved: "The address is removed.",
  emailUnchanged: "Saved.",
  verifyTitle: "Confirm your email address",
  verifying: "Confirming…",
  verifiedAs: (email: string) => `${email} is confirmed.`,
  toAccount: "Your account",
  forgotLink: "Forgot your password?",
  forgotTitle: "Reset your password",
  forgotLead: "Enter your username or your verified email address. We mail a link that lets you choose a new password.",
  whoLabel: "Username or email",
  sendLink: "Send the link",
  resetTitle: "Choose a new password",
  codeLabel: "Code from the email (or the whole link)",
  codeMissing: "Paste the code or the link from the email.",
  newPassword: "New password",
  repeatPassword: "The new password again",
  passwordHint: "At least 8 characters.",
  passwordProblem: (problem: PasswordProblem) =>
    problem === "length" ? "The password needs 8–256 characters." : "The two passwords differ.",
  setPassword: "Set the new password",
  resetDone: (username: string) => `The password of ${username} is changed and every session is signed out. Log in again.`,
  toLogIn: "Log in",
  wait: "Please wait…",
  offline: "You are offline: this needs a connection.",
} as const;

export const ACCOUNT_TEXT = localized("account", ACCOUNT_EN);
