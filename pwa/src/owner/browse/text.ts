/** Every string of the owners' browse and flag-queue pages, in one table (translate here). */
import { localized } from "../../i18n/runtime";
import type { ValidationLabel, ValidationMode } from "../../api/types";
import type { BulkAction, Choice, ExampleStatus, FilterProblem } from "./filters";

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export const BROWSE_EN = {
  backToTask: "Task owner page",
  browseTitle: (task: string, round: number | null) => (round === null ? `Examples of ${task}` : `Examples of ${task}, round ${round}`),
  browseLead: "Search what the round collected, check examples and act on several at once.",
  flagTitle: (task: string) => `Flag queue of ${task}`,
  flagLead: "Examples their authors flagged or that validators sent to you. Resolve, re-label or retract them.",
  flagQueueLink: "Flag queue",
  roundLabel: "Round",
  roundOption: (n: number) => `Round ${n}`,
  noRound: "This task has no round yet.",
  loading: "Loading…",
  loadingTask: "Loading the task…",
  missingTask: (code: string) => `There is no task “${code}”.`,
  filtersTitle: "Find examples",
  search: "Search the text",
  searchHint: "Words to find; \"a phrase\" in quotes, -word to leave one out.",
  statuses: "Status",
  statusText: {
    PENDING: "Pending", AWAITING_CLAIM: "Awaiting the author's claim", OPEN: "Open for validation", CLOSED: "Closed",
    VALIDATED: "Validated", REJECTED: "Rejected", FLAGGED: "Flagged",
  } as Record<ExampleStatus, string>,
  fooled: "Fooled the model",
  flagged: "Flagged",
  retracted: "Retracted",
  choiceText: { any: "Any", yes: "Yes", no: "No" } as Record<Choice, string>,
  author: "Author (username)",
  from: "Written from",
  to: "Written until",
  apply: "Search",
  reset: "Clear the filters",
  problems: {
    textTooLong: "The search is too long: 200 characters at most.",
    authorTooLong: "The username is too long.",
    badDate: "A date is not valid.",
    datesReversed: "The first day comes after the last day.",
  } as Record<FilterProblem, string>,
  resultsTitle: "Examples",
  shown: (n: number, more: boolean) => `${plural(n, "example", "examples")} shown${more ? ", more to load" : ""}.`,
  none: "No example matches.",
  noFlags: "No flagged example is waiting.",
  loadMore: "Load more",
  select: (text: string) => `Select “${text}”`,
  selectAll: "Select all shown",
  selected: (n: number) => `${plural(n, "example", "examples")} selected`,
  clearSelection: "Clear the selection",
  label: "Label",
  fooledTag: "Fooled the model",
  notFooledTag: "Did not fool the model",
  flaggedTag: "Flagged",
  retractedTag: "Retracted",
  flagReason: (reason: string) => `Flag: ${reason}`,
  written: (when: string) => `Written ${when}`,
  details: "Details",
  detailsOf: (text: string) => `Details of “${text}”`,
  flag: "Flag",
  flagOne: (text: string) => `Flag “${text}”`,
  flagConfirm: (text: string) => `Flag “${text}” for the owners' review?`,
  flagYes: "Yes, flag it",
  bulkTitle: "Act on the selected examples",
  action: "Action",
  actionText: {
    VALIDATE_CORRECT: "Validate as correct",
    VALIDATE_INCORRECT: "Validate as incorrect",
    VALIDATE_FLAGGED: "Validate as flagged",
    RESOLVE_FLAG: "Resolve the flag",
    RETRACT: "Retract",
  } as Record<BulkAction, string>,
  note: "Note (optional)",
  noteHint: "Kept in each example's history.",
  applyAction: "Apply",
  confirm: (action: BulkAction, n: number) => `${BROWSE_ACTION_VERB[action]} ${plural(n, "example", "examples")}?`,
  confirmYes: "Yes, do it",
  cancel: "Cancel",
  selectFirst: "Select at least one example first.",
  outcomeDone: "Done",
  outcomeFailed: "Not done",
  summary: (action: BulkAction, done: number, failed: number) =>
    `${BROWSE_TEXT.actionText[action]}: ${done} done${failed ? `, ${failed} not done` : ""}.`,
  reviewTitle: "Example details",
  close: "Close",
  input: "Input",
  model: "Model",
  modelOf: (name: string, version: string) => (version ? `${name} (version ${version})` : name),
  status: "Status",
  goldAnswer: "Gold answer",
  noGold: "Not a gold item.",
  votesTitle: "Votes",
  noVotes: "No vote yet.",
  vote: (username: string, label: ValidationLabel, mode: ValidationMode) =>
    `${username}: ${LABEL_TEXT[label]}${mode === "OWNER" ? " (owner)" : ""}`,
  historyTitle: "History",
  noHistory: "No owner action yet.",
  event: (action: string, username: string | null) => `${EVENT_TEXT[action] ?? action} by ${username ?? "a deleted account"}`,
  labelText: (label: ValidationLabel) => LABEL_TEXT[label],
};

const LABEL_TEXT: Record<ValidationLabel, string> = { CORRECT: "correct", INCORRECT: "incorrect", FLAGGED: "flagged" };

const BROWSE_ACTION_VERB: Record<BulkAction, string> = {
  VALIDATE_CORRECT: "Validate as correct",
  VALIDATE_INCORRECT: "Validate as incorrect",
  VALIDATE_FLAGGED: "Validate as flagged",
  RESOLVE_FLAG: "Resolve the flag of",
  RETRACT: "Retract",
};

const EVENT_TEXT: Record<string, string> = {
  validate_correct: "Validated as correct",
  validate_incorrect: "Validated as incorrect",
  validate_flagged: "Validated as flagged",
  resolve_flag: "Flag resolved",
  retract: "Retracted",
};

export const BROWSE_TEXT = localized("browse", BROWSE_EN);
