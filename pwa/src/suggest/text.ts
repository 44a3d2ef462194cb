/**
 * Strings of suggestions for the adversary ("inspire me": candidates from the task's generator or edits of the draft
 * that flip the model; the owner page's numbers with and without them), in one table (translate in text.es/fr/ar.ts).
 */
import { formatNumber } from "../i18n/format";
import { localized } from "../i18n/runtime";

const f = (n: number) => formatNumber(n);

export const SUGGEST_EN = {
  // The annotate page
  title: "Need inspiration?",
  lead: "Ask for suggestions, then edit one and submit it as your own. Your example records that it was assisted.",
  inspire: "Inspire me",
  perturb: "Perturb my draft",
  perturbHint: "Write a draft first: small edits of it are tried until the model changes its answer.",
  asking: "Asking for suggestions…",
  offline: "Suggestions need a connection.",
  none: "No usable suggestion this time. Try again?",
  listTitle: (n: number) => (n === 1 ? "1 suggestion" : `${f(n)} suggestions`),
  use: "Use this",
  useLabel: (n: number) => `Use this (suggestion ${f(n)})`,
  used: "In the editor: edit it, choose your label and submit.",
  meant: (label: string) => `Meant as: ${label}`,
  modelSays: (label: string) => `The model says: ${label}`,
  flipped: "The model changed its answer",
  notFlipped: (percent: string) => `Not flipped; its confidence fell to ${percent}`,
  edits: (what: string) => `Edits: ${what}`,
  // The chat page
  openingTitle: "Stuck for an opening?",
  openingAsk: "Suggest an opening message",
  openingUsed: "In the message box: edit it and send.",
  // The verdict
  assisted: "Written from a suggestion",
  assistedEdited: "Written from a suggestion, edited",
  // The task owner page
  ownerTitle: "With and without suggestions",
  roundHeading: (n: number) => `Round ${f(n)}`,
  caption: (n: number) => `Round ${f(n)}: examples written with and without a suggestion`,
  colWho: "Examples",
  colCollected: "Collected",
  colRate: "Fooling rate",
  colValidated: "Validated fooling rate",
  colMedian: "Median time to a fooling example",
  rowUnassisted: "Unassisted",
  rowAssisted: "Assisted",
  edited: (n: number) => `${f(n)} edited`,
  seconds: (s: string) => `${s} s`,
  noValue: "—",
  loading: "Loading the numbers with and without suggestions…",
} as const;

export const SUGGEST_TEXT = localized("suggest", SUGGEST_EN);
