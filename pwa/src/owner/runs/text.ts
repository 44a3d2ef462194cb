/**
 * Strings of the owner's adversary runs panel (the task's generator writing examples unattended, docs/design.md §4.1f),
 * in one table (translate in text.es/fr/ar.ts).
 */
import { formatNumber } from "../../i18n/format";
import { localized } from "../../i18n/runtime";

const f = (n: number) => formatNumber(n);

export const RUNS_EN = {
  title: (n: number) => `Run the generator on round ${f(n)}`,
  lead: "The task's generator writes examples against this round's target, unattended. They enter validation like people's, marked machine-made.",
  count: "Examples to write",
  countHint: (max: number) => `A whole number from 1 to ${f(max)}. Each one counts against your examples per minute.`,
  countInvalid: (max: number) => `Enter a whole number from 1 to ${f(max)}.`,
  start: "Start the run",
  starting: "Starting…",
  started: "The run has started. Its figures update every few seconds.",
  cancel: "Cancel the run",
  cancelled: "The run was cancelled. What it wrote stays.",
  wait: (left: number) => `Try again in ${f(left)} s.`,
  runsTitle: (n: number) => `Runs on round ${f(n)}`,
  none: "No run yet.",
  loading: "Loading the runs…",
  status: { QUEUED: "Queued", RUNNING: "Running", DONE: "Done", FAILED: "Failed", CANCELLED: "Cancelled" },
  progress: (done: number, count: number) => `${f(done)} of ${f(count)} written`,
  figures: "Figures",
  colProduced: "Written",
  colFooled: "Fooled the target",
  colValidated: "Validated",
  colValidatedFooled: "Validated and fooled",
  colAwaiting: "Awaiting validation",
  colRefused: "Refused candidates",
  byWhom: (who: string, generator: string) => `Started by ${who}; generator ${generator}`,
  reason: (text: string) => `Reason: ${text}`,
} as const;

export const RUNS_TEXT = localized("runs", RUNS_EN);
