/**
 * The status an example shows in lists: what its author did to it wins over the server's status ("Open"), so a
 * retracted or flagged example never reads "Open". Pure.
 */
import type { Example } from "../api/types";
import { humanize } from "../tasks/config";
import { EXAMPLES_TEXT } from "./text";

/** The author's own statuses, in the UI locale. */
export const STATUS_TEXT = {
  get retracted() { return EXAMPLES_TEXT.retracted; },
  get flagged() { return EXAMPLES_TEXT.flagged; },
};

export function statusText(example: Pick<Example, "status" | "retracted" | "flagged">): string {
  if (example.retracted) return STATUS_TEXT.retracted;
  if (example.flagged) return STATUS_TEXT.flagged;
  return humanize(example.status);
}
