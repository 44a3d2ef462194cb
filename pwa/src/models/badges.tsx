/** A model's status tag and its "in the loop" tag, shared by the models list and one model's page. */
import { MODELS_TEXT } from "./text";

/** "In the loop for round N": the submission judges annotators' examples in an open round. */
export function InTheLoop({ rounds }: { rounds: number[] }) {
  if (!rounds.length) return null;
  return <span class="status-tag in-the-loop" data-testid="in-the-loop">{MODELS_TEXT.inTheLoop(rounds.join(", "))}</span>;
}

export function StatusBadge({ status }: { status: string }) {
  return <span class={`status-tag model-status-${status}`} data-status={status}>{MODELS_TEXT.status[status] ?? status}</span>;
}
