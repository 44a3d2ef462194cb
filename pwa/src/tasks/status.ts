/** What a task's lifecycle state means to the people who can see it (only PUBLIC tasks reach everyone). */
import type { TaskStatus } from "../api/types";
import { SHELL_TEXT } from "../ui/text";

export interface StatusNote {
  badge: string;
  hint: string;
}

/** The badge and hint for a task's state, in the UI locale; null for a public task (nothing to say). */
export function statusNote(status: TaskStatus | undefined): StatusNote | null {
  return status && status !== "PUBLIC" ? SHELL_TEXT.taskStatus[status] : null;
}
