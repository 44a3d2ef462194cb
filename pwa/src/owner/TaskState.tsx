/**
 * A task's state on every owner page of the task: a proposal waiting for an admin, rejected (with the admin's note),
 * hidden or archived, and what the owner can do meanwhile. A public task shows nothing.
 */
import type { TaskStatus } from "../api/types";
import { OWNER_TEXT as T } from "./text";

export function TaskState({ status, reviewNote }: { status: TaskStatus | undefined; reviewNote?: string | null }) {
  if (!status || status === "PUBLIC") return null;
  return (
    <div class="note task-state" role="note" aria-labelledby="task-state-title" data-testid="task-state" data-status={status}>
      <p id="task-state-title"><strong>{T.stateTitle[status]}</strong></p>
      {status === "REJECTED" && reviewNote && <p dir="auto">{T.stateNote(reviewNote)}</p>}
      <p>{T.stateNext[status]}</p>
    </div>
  );
}
