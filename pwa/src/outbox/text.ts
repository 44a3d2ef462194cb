/** Every string of the outbox page, in one table (translate in text.es/fr/ar.ts; claims and votes: claims.ts, validations.ts). */
import { formatNumber as f, plural } from "../i18n/format";
import { localized } from "../i18n/runtime";

export const OUTBOX_PAGE_EN = {
  title: "Outbox",
  lead: "Examples you submit and votes you cast are kept on this device until the server has answered for each of them. They are sent automatically whenever you are online.",
  sendNow: "Send now",
  offline: "Offline.",
  lastAttemptFailed: (error: string) => `Last attempt failed: ${error}`,
  waitingTitle: "Waiting to be sent",
  count: (n: number) => `(${f(n)})`,
  nothingWaits: "Nothing waits.",
  failedTitle: (n: number) => `Could not be sent (${f(n)})`,
  none: "None.",
  sendAgain: "Send again",
  discard: "Discard",
  syncedTitle: (n: number) => `Recently sent (${f(n)})`,
  noneYet: "None yet.",
  /** {when} is a <time>. */
  sentAt: (task: string) => `${task} · sent {when}`,
  writtenAt: (task: string) => `${task} · written {when}`,
  attempts: (n: number) => plural(n, { one: " · # attempt", other: " · # attempts" }),
  /** {label} is a <strong>. */
  modelSaid: " The model said {label}.",
  otherAccount: (n: number) =>
    plural(n, {
      one: "# example on this device belongs to another account and will be sent when that account logs in here.",
      other: "# examples on this device belong to another account and will be sent when that account logs in here.",
    }),
  switchAccount: "Switch account",
  /** {vote} is a <strong>. */
  voteOn: (owner: boolean, summary: string) => `Your vote {vote}${owner ? " (owner)" : ""} on: ${summary}`,
  lastProblem: (error: string) => `Last problem: ${error}`,
} as const;

export const OUTBOX_PAGE_TEXT = localized("outboxPage", OUTBOX_PAGE_EN);
