/**
 * Strings of the owners' training runs page (retraining the target model and its gate, docs/design.md §4.8a), in one
 * table (translate in text.es/fr/ar.ts). Numbers arrive formatted (training.ts) or are formatted here with the locale.
 */
import { formatNumber } from "../../i18n/format";
import { localized } from "../../i18n/runtime";

const f = (n: number) => formatNumber(n);

export const TRAINING_EN = {
  title: (task: string) => `Retraining of ${task}`,
  backToTask: "Task owner page",
  lead: "Retrain the task's target model on its seed data plus the validated examples of chosen rounds. The new version is offered for the next round only when the retraining gate finds it better on held-out examples and no worse on the scoring datasets.",
  offline: "You are offline. The runs shown may be out of date; starting, cancelling, overriding and opening a round need a connection.",
  loading: "Loading the training runs…",
  none: "No training run yet.",
  loadFailed: (problem: string) => `The training runs could not be loaded: ${problem}`,
  retry: "Try again",
  liveFailed: "Live updates are unavailable; the page checks the runs every few seconds.",
  listTitle: "Training runs",

  // The form
  startTitle: "Start a retraining",
  rounds: "Rounds to train from",
  roundsHint: "The validated examples of the ticked rounds; about a fifth of them are held out for the gate and never trained on. None ticked: seed data only.",
  round: (n: number) => `Round ${f(n)}`,
  noRounds: "The task has no round yet: the retraining uses the seed data only.",
  profile: "Profile",
  profileFast: "Fast: fewer training steps, done in minutes",
  profileFull: "Full: the built-in recipe",
  tolerance: "Scoring tolerance",
  toleranceHint: "How much each scoring dataset's error may grow, as a share from 0 to 1 (0.01 is one percentage point).",
  minHeldOut: "Fewest held-out examples",
  minHeldOutHint: (max: number) => `A whole number from 1 to ${f(max)}. With fewer held-out examples the gate rejects the version.`,
  includeAgreed: "Also train on the examples the model agreed with",
  includeAgreedHint: "Examples that did not fool the model and that the task does not send to validators: their label is the writer's, which the model agreed with. Without them, on a task that validates only fooling examples, training and the gate use only examples the current model got wrong.",
  tooManyRounds: (max: number) => `Tick at most ${f(max)} rounds.`,
  unknownRound: "Tick only rounds of this task.",
  toleranceInvalid: "Enter a number from 0 to 1, such as 0.01.",
  minHeldOutInvalid: (max: number) => `Enter a whole number from 1 to ${f(max)}.`,
  profileInvalid: "Choose a profile.",
  fixErrors: "Correct the fields marked below.",
  start: "Start the retraining",
  starting: "Starting…",
  started: "The retraining has started. Its progress shows in the list below.",
  activeNote: "A retraining of this task is running; another can start once it ends.",

  // A run
  runTitle: (when: string) => `Run of ${when}`,
  status: {
    queued: "Queued", training: "Training", evaluating: "Evaluating", published: "Published", rejected: "Rejected by the gate",
    failed: "Failed", cancelled: "Cancelled",
  },
  statusLabel: "Status",
  stopping: "Stopping: the run ends at its next training step.",
  progressLabel: "Progress",
  progress: (percent: string) => `${percent} done`,
  version: "Version",
  notBuilt: "Not built yet",
  retrainedUpload: (version: string) => `${version}: a new model of the uploaded model's owner, built by its own train.py`,
  fromRounds: "Trained from",
  roundList: (numbers: string) => `Rounds ${numbers}`,
  seedOnly: "Seed data only",
  profileName: { fast: "Fast", full: "Full" },
  trainedOn: "Validated examples",
  trained: (n: number, kept: number) => `${f(n)} trained on, ${f(kept)} held out for the gate`,
  agreedOn: "Examples the model agreed with",
  agreedCount: (n: number) => `${f(n)} read with the validated ones`,
  agreedIncluded: "Included",
  agreedLeftOut: "Left out",
  gateRules: "Gate settings",
  rules: (tolerance: string, min: number) => `Scoring tolerance ${tolerance}; at least ${f(min)} held-out examples`,
  cost: "Cost",
  costValue: (wall: string, cpu: string) => `${wall} of wall time, ${cpu} CPU seconds`,
  log: "Status log",
  logEmpty: "Nothing logged yet.",

  // The gate
  gateTitle: "The retraining gate",
  passed: "The gate passed: the new version is offered for the next round.",
  rejected: "The gate rejected the new version: it is not offered for the next round.",
  versions: (current: string, next: string) => `Current version ${current} against new version ${next}.`,
  heldOutCaption: "Held-out examples of the chosen rounds",
  scoringCaption: "Scoring datasets",
  noScoring: "The task has no scoring dataset: nothing to compare there.",
  colExamples: "Examples",
  colCurrent: "Current error",
  colNew: "New error",
  colDifference: "Difference (new − current)",
  colInterval: "95% interval",
  colP: "McNemar p",
  colChanges: "Fixed / broken",
  colDecides: "Better",
  colDataset: "Dataset",
  colTolerance: "Tolerance",
  colPassed: "Within tolerance",
  examples: (n: number, min: number) => `${f(n)} (at least ${f(min)})`,
  notEnough: "Not enough held-out examples",
  interval: (low: string, high: string) => `${low} to ${high}`,
  changes: (done: number, failed: number) => `${f(done)} / ${f(failed)}`,
  yes: "Yes",
  no: "No",
  decision: "Decision",

  // Override
  overridden: (who: string, when: string) => `The gate was overridden by ${who} on ${when}.`,
  overriddenReason: (reason: string) => `Reason: ${reason}`,
  overrideTitle: "Offer this version anyway",
  overrideHint: "A reason is required; the run shows who overrode the gate and why, and the admins' audit log records it.",
  reason: "Reason for overriding the gate",
  reasonCount: (count: number, max: number) => `${f(count)} of ${f(max)} characters`,
  reasonRequired: "Give a reason.",
  reasonTooLong: (max: number) => `At most ${f(max)} characters.`,
  override: "Override the gate",
  overriding: "Overriding…",
  overrideDone: "The gate was overridden: the version is offered for the next round.",

  // Cancel
  cancel: "Cancel the run",
  confirmCancel: "Cancel this retraining? No new version is kept and the current target keeps serving.",
  yesCancel: "Yes, cancel it",
  keepRunning: "No, keep it running",
  cancelAsked: "Cancellation asked: the run stops at its next training step.",
  cancelledDone: "The run was cancelled.",

  // Open the next round
  openRound: (version: string) => `Open the next round with version ${version}`,
  confirmOpen: (version: string) => `This closes the open round and opens the next one, judged by version ${version}, with the same contexts.`,
  yesOpen: "Yes, open the round",
  goBack: "No, go back",
  roundOpened: (n: number, version: string) => `Round ${f(n)} is open, judged by version ${version}.`,
  inUse: (version: string) => `The open round is judged by version ${version}.`,

  // Live announcements
  nowStatus: (when: string, status: string) => `The run of ${when} is now: ${status}.`,
} as const;

export const TRAINING_TEXT = localized("training", TRAINING_EN);
