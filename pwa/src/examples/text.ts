/** Every string of "My examples" (and the example statuses shown in lists), in one table (translate in text.es/fr/ar.ts). */
import { formatNumber as f, plural } from "../i18n/format";
import { localized } from "../i18n/runtime";

export const EXAMPLES_EN = {
  title: "My examples",
  loading: "Loading…",
  savedCopy: (error: string) => `Showing the examples saved on this device: ${error}`,
  stillWaiting: (n: number) =>
    plural(n, { one: "# example still waits on this device. ", other: "# examples still wait on this device. " }),
  couldNotSend: (n: number) => `${f(n)} could not be sent. `,
  openOutbox: "Open the outbox",
  /** {link} is the link to the task list. */
  noneYet: "You have not submitted any examples yet. {link}.",
  pickTask: "Pick a task",
  roundOf: (task: string, round: number) => `${task}, round ${f(round)} · `,
  /** {intended} and {model} are <strong>s. */
  youSaid: "You said {intended}",
  modelSaid: "; the model said {model}",
  waitingForModel: (reason: string) => ` (waiting for the model: ${reason})`,
  showMore: "Show more",
  retracted: "Retracted",
  flagged: "Flagged",
} as const;

export const EXAMPLES_TEXT = localized("examples", EXAMPLES_EN);
