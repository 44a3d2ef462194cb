/**
 * Strings of the task owner pages (owner index, one task: chart, rounds and their actions, contexts, datasets), in one
 * table (translate in text.es/fr/ar.ts).
 */
import type { TaskStatus } from "../api/types";
import { formatDateTime, formatNumber as f, plural } from "../i18n/format";
import { localized } from "../i18n/runtime";

export const OWNER_EN = {
  // Opening a round (and its confirmation)
  open: "Open round",
  opened: (number: number) => `Round ${f(number)} is open.`,
  confirmGroup: (current: number) => `Confirm closing round ${f(current)}`,
  confirmOpen: (current: number, next: number) =>
    `Opening round ${f(next)} closes round ${f(current)}: it stops collecting examples.`,
  yesOpen: (current: number, next: number) => `Yes, close round ${f(current)} and open round ${f(next)}`,
  cancel: "Cancel",
  // The index page
  indexTitle: "Your tasks",
  indexLead: "Create tasks, open rounds, add contexts and datasets, and follow how often the model is fooled.",
  ownedTitle: "Tasks you own",
  loading: "Loading…",
  noneOwned: "You do not own any task.",
  newTaskRegion: "New task",
  createTitle: "Create a task",
  createHint:
    "Describe it in a form (or as JSON) with a live preview. It is a proposal until an admin approves it; open its first round with a target model you may use, then or later from its page.",
  createLink: "Create a task",
  // One task
  taskFallbackTitle: "Task",
  loadingTask: "Loading the task…",
  noTask: (code: string) => `There is no task “${code}”.`,
  notOwner: "You do not own this task: the server will refuse changes.",
  campaignsLink: "Crowd campaigns (Prolific, MTurk, open links)",
  flagQueueLink: "Flag queue",
  webhooksLink: "Webhooks",
  settingsLink: "Settings",
  trainingLink: "Retraining the target model",
  ratesTitle: "Model error rate per round",
  ratesRegion: "Numbers per round (scrolls sideways)",
  ratesCaption: "Numbers per round",
  colRound: "Round",
  colExamples: "Examples",
  colFooled: "Fooled",
  roundsTitle: "Rounds",
  noRounds: "No rounds yet.",
  contextsTitle: "Add contexts",
  contextsTitleRound: (round: number) => `Add contexts to round ${f(round)}`,
  openRoundFirst: "Open a round first.",
  contextsLabel: "Contexts, one JSON object per line",
  contextsHint: "Each line is {\"fields\": {…}, \"tag\": …} or just the fields.",
  addContexts: "Add contexts",
  lineNotJson: (line: number) => `Line ${f(line)} is not valid JSON.`,
  oneContextPerLine: "Write one context per line, as JSON.",
  contextsAdded: (count: number, round: number) =>
    plural(count, { one: `# context added to round ${f(round)}.`, other: `# contexts added to round ${f(round)}.` }),
  sideRegion: "Rounds and datasets",
  openRoundTitle: "Open a new round",
  targetModels: "Target models",
  targetModelsHint: "The models annotators try to fool in the new round: choose one or more. One you cannot use says why.",
  targetsLoading: "Loading the target models…",
  targetsFailed: (why: string) => `The target models could not be loaded: ${why}`,
  targetsNoneUsable:
    "No target model can be chosen for this task now. Ask an admin to share a built-in model with every task owner, or upload a model for this task on the Models page and publish it once it is evaluated; then open the round here.",
  targetsChooseOne: "Choose at least one target model.",
  targetVersion: (version: string) => `version ${version}`,
  targetReady: "ready",
  targetNotReady: "not ready",
  targetShared: "shared by an admin",
  targetHeldout: (accuracy: number | null, f1: number | null) =>
    accuracy !== null ? `held-out accuracy ${f(accuracy, { style: "percent", maximumFractionDigits: 1 })}` : f1 !== null ? `held-out F1 ${f(f1)}` : "",
  targetSubmission: "a published submission of this task",
  targetIdle: "idle: loaded again when the round uses it",
  targetsRefresh: "Read the list again",
  targetEndpoint: (name: string) => `LLM endpoint: ${name}`,
  targetEndpointAbout: "an OpenAI-compatible server an admin registered: it is asked for a one-token reply when the round opens",
  roundTargets: (labels: string[]) => `Targets: ${labels.join(", ")}`,
  datasetTitle: "Upload a dataset",
  datasetName: "Name",
  datasetFile: "JSONL file",
  access: "Access",
  accessScoring: "Scoring (ranks models)",
  accessStandard: "Standard",
  accessHidden: "Hidden",
  weight: "Weight",
  roundNumber: "Round number (optional)",
  uploadDataset: "Upload dataset",
  chooseJsonl: "Choose a JSONL file.",
  datasetCreated: (name: string, count: number) =>
    plural(count, { one: `Dataset “${name}” created with # example.`, other: `Dataset “${name}” created with # examples.` }),
  // The task's state, on every owner page of the task (TaskState.tsx); a public task shows none
  stateTitle: {
    PROPOSED: "Proposal — waiting for an admin's approval",
    REJECTED: "Rejected by an admin",
    HIDDEN: "Hidden",
    ARCHIVED: "Archived",
  } as Record<Exclude<TaskStatus, "PUBLIC">, string>,
  stateNext: {
    PROPOSED:
      "Until an admin approves it, only its owners and admins see it. You can already open rounds, add contexts and datasets, and try it yourself; annotators see it once it is approved.",
    REJECTED: "Only its owners and admins see it. Change it in its settings to propose it again.",
    HIDDEN: "It is not listed: only its owners and admins reach it. Make it public again in its settings.",
    ARCHIVED: "Read-only: no new rounds, examples or votes; its data and exports stay. Make it public or hidden again in its settings.",
  } as Record<Exclude<TaskStatus, "PUBLIC">, string>,
  stateNote: (note: string) => `The admin's note: “${note}”`,
  // The chart
  chartTitle: "MER and vMER per round",
  chartRound: (round: number, mer: string, vmer: string) => `round ${f(round)}: MER ${mer}, vMER ${vmer}`,
  chartTick: (round: number) => `R${f(round)}`,
  legendMer: "MER (fooled / collected)",
  legendVmer: "vMER (validated fooled / collected, dashed)",
  // One round's actions
  roundTitle: (n: number) => `Round ${f(n)}`,
  roundOpen: "Open",
  roundClosed: (iso: string) => `Closed ${formatDateTime(iso)}`,
  format: "Format",
  formatOf: (n: number) => ` of the round ${f(n)} export`,
  hfDataset: "HF dataset (tar.gz)",
  preferencePairs: "Preference pairs (JSONL)",
  exportRound: (n: number) => `Export round ${f(n)}`,
  closeRound: (n: number) => `Close round ${f(n)}`,
  browseRound: (n: number) => `Browse examples of round ${f(n)}`,
  confirmClose: (n: number) => `Confirm closing round ${f(n)}`,
  closeExplain: (n: number) => `Closing round ${f(n)} stops collecting examples in it.`,
  yesClose: (n: number) => `Yes, close round ${f(n)}`,
  download: (n: number, format: string) => `Download round ${f(n)} (${format})`,
  linkUntil: (iso: string) => `The link works until ${formatDateTime(iso)}.`,
  exportReady: (format: string, n: number) => `The ${format} export of round ${f(n)} is ready to download.`,
  closedDone: (n: number) => `Round ${f(n)} is closed: it takes no new examples.`,
} as const;

export const OWNER_TEXT = localized("owner", OWNER_EN);
/** The rounds' strings (opening a round): part of the owner table. */
export const ROUND_TEXT = OWNER_TEXT;
