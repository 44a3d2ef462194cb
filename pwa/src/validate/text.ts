/** Every string of the validate pages, in one table (translate in text.es/fr/ar.ts). */
import { formatNumber } from "../i18n/format";
import { localized } from "../i18n/runtime";

export const VALIDATE_EN = {
  title: "Validate",
  pickerLead: "Check other people’s examples: is the intended label right, and did the example really fool the model?",
  pickerLink: "Validate examples",
  taskTitle: (name: string) => `Validate: ${name}`,
  loadingTask: "Loading the task…",
  noTask: (code: string) => `There is no task “${code}”.`,
  allTasks: "All tasks",
  noRounds: "This task has no rounds yet.",
  lead: "Is each example’s intended label right, and did it really fool the model? Vote with the buttons or the keys 1, 2 and 3.",
  exampleTitle: "Example to validate",
  queueTitle: "Queue",
  /** The true count for this validator; `capped`: at least that many. */
  waiting: (count: number, capped: boolean) => `(${formatNumber(count)}${capped ? "+" : ""} waiting)`,
  loadingQueue: "Loading the queue…",
  offlineNoQueue: "You are offline and no queue of this round is saved on this device yet.",
  loadingMore: "Loading more examples…",
  empty: "No examples wait for validation. New ones appear here as soon as someone fools the model.",
  offlineWaiting: "You are offline: the examples waiting for you load once you are back online.",
  heldWaiting: "None of the examples waiting can be handed to you right now: other validators are looking at them. They come back here when they are free.",
  askAgain: "Ask again",
  voteTitle: "Your vote",
  noteLabel: "Note (optional)",
  noteHint: "Say why, e.g. when you flag an example. Keys 1–3 do not vote while you type here.",
  ownerMode: "Owner mode",
  ownerModeHint: "(you own this task: your vote decides at once)",
  roundTitle: (number: number | string) => `Round ${typeof number === "number" ? formatNumber(number) : number}`,
  otherRound: "Validate another round",
  live: "Live: new examples appear by themselves.",
  offline: "Offline: votes are kept on this device.",
  notLive: (reason: string) => `Not live: ${reason}`,
  connecting: "Connecting…",
  reconnect: "Reconnect",
  liveUnavailable: (message: string) => `The live queue is unavailable (${message}).`,
  writeExamples: "Write examples for this task",
  voteStored: (vote: string) => `Your vote “${vote}” is stored.`,
  voteRefused: (message: string) => `Your vote was refused: ${message}`,
  voteSent: (vote: string) => `Vote “${vote}” sent.`,
  voteSaved: (vote: string) => `Vote “${vote}” saved on this device; it will be sent when you are online.`,
  flag: "Flag",
  sideLabel: "Vote and round",
  // Generative tasks: the validator reads a conversation and checks what its author (or the judge) says of it.
  generativeLead: "Read each conversation, then say whether the model failed as claimed. Vote with the buttons or the keys 1, 2 and 3.",
  questionFailed: "Did the model fail as claimed?",
  questionHeld: "Did the model hold as claimed?",
  // Generative tasks whose validators' ratings decide (fooling validator_rating): each vote is a rating.
  ratingLead: "Read each conversation, then rate how badly the model failed the goal. Submit your rating with the button, Enter or the key 1; flag a conversation for the task owners with the key 3.",
  ratingTitle: "Rate the model’s replies",
  ratingGoal: "The goal:",
  ratingScale: (field: string, low: string, high: string, threshold: string) =>
    `“${field}”, from ${low} to ${high}: a rating of ${threshold} or more says the model failed the goal.`,
  ratingScaleOpen: (field: string, threshold: string) => `“${field}”: a rating of ${threshold} or more says the model failed the goal.`,
  ratingSaysFailed: "Your rating says the model failed.",
  ratingSaysHeld: "Your rating says the model did not fail.",
  submitRating: "Submit rating",
  ratingVote: (value: string) => `Rating ${value}`,
  ratingFlagHint: "Flag sends the conversation to the task owners for review, with your rating.",
} as const;

export const VALIDATE_TEXT = localized("validate", VALIDATE_EN);

/** The example a validator judges (ExampleView). */
export const EXAMPLE_VIEW_EN = {
  label: "Example",
  writtenBy: (field: string) => `${field} (written by the annotator)`,
  intendedLabel: "Intended label",
  intendedAnswer: "Intended answer",
  modelAnswer: "Model’s answer",
  howSure: (model: string) => `How sure ${model} was`,
  explanation: "Annotator’s explanation:",
  goal: "The author’s goal",
  claimFailed: "The author says the model failed: it did what the goal asks.",
  claimHeld: "The author says the model held: it did not do what the goal asks.",
  judgeFailed: "The judge model says the model failed.",
  judgeHeld: "The judge model says the model held.",
  validatorsDecide: "Validators decide whether the model failed: rate how badly it failed the goal.",
} as const;

export const EXAMPLE_VIEW_TEXT = localized("exampleView", EXAMPLE_VIEW_EN);
