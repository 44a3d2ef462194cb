/** Every string of the inbox (bell and page), in one table (translate here). */
import { localized } from "../i18n/runtime";
import type { NotificationKind } from "./documents";

const KIND_NAMES: Record<NotificationKind, string> = {
  MODEL_DEPLOYED: "Model deployed",
  MODEL_SCORED: "Model scored",
  MODEL_FAILED: "Model failed",
  MODEL_TAKEN_DOWN: "Model taken down",
  EXAMPLE_VALIDATED: "Example validated",
  EXAMPLE_REJECTED: "Example rejected",
  BADGE_EARNED: "Badge earned",
  TASK_APPROVED: "Task approved",
  TASK_REJECTED: "Task rejected",
};

export const INBOX_EN = {
  title: "Notifications",
  bell: (unread: number) => (unread === 0 ? "Notifications, none unread" : `Notifications, ${unread} unread`),
  loading: "Loading…",
  empty: "Nothing here yet. You will hear when your models are scored, your examples validated or a badge earned.",
  unreadOnly: "Unread only",
  markRead: "Mark read",
  markAllRead: "Mark all read",
  allRead: "All read.",
  unread: "Unread",
  more: "Show older",
  open: "Open",
  kind: (kind: NotificationKind) => KIND_NAMES[kind] ?? kind,
  emailTitle: "Email",
  emailLead: "Also send these to my verified email address:",
  emailUnavailable: "This server does not send email.",
  save: "Save",
  saved: "Saved.",
  failed: (message: string) => `Could not update: ${message}`,
} as const;

/** Every kind, in the order the email settings list them. */
export const NOTIFICATION_KINDS = Object.keys(KIND_NAMES) as NotificationKind[];

export const INBOX_TEXT = localized("inbox", INBOX_EN);
