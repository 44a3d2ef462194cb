/** What a task's lifecycle state means to the people who can see it (only PUBLIC tasks reach everyone). */
import type { TaskStatus } from "../api/types";

export interface StatusNote {
  badge: string;
  hint: string;
}

const NOTES: Record<Exclude<TaskStatus, "PUBLIC">, StatusNote> = {
  PROPOSED: { badge: "Proposal", hint: "Awaiting an admin's approval: only its owners and admins see it." },
  REJECTED: { badge: "Rejected", hint: "An admin rejected this proposal: only its owners and admins see it." },
  HIDDEN: { badge: "Hidden", hint: "Not listed for others: only its owners and admins see it." },
  ARCHIVED: { badge: "Archived", hint: "Read-only: its data and exports stay, no new examples or votes." },
};

/** The badge and hint for a task's state; null for a public task (nothing to say). */
export function statusNote(status: TaskStatus | undefined): StatusNote | null {
  return status && status !== "PUBLIC" ? NOTES[status] : null;
}
