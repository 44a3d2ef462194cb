/**
 * Strings of the chat with a generative target (the annotate page of `kind: "generative"` tasks), in one table
 * (translate in text.es/fr/ar.ts). Interpolations are small functions taking values; components never concatenate.
 */
import { formatNumber, plural } from "../i18n/format";
import { localized } from "../i18n/runtime";

export const CHAT_EN = {
  // The goal and the scenario
  goalTitle: "Your goal",
  briefShow: "Show the goal",
  briefHide: "Hide the goal",
  scenarioTitle: "Scenario",
  modeChat: (n: number) => plural(n, { one: "Up to # message in a conversation.", other: "Up to # messages in a conversation." }),
  modePrompt: "One message, one reply.",
  fetchingScenario: "Fetching a scenario…",
  offlineNoScenario: "You are offline and no scenario of this task is saved on this device yet. Connect once to fetch one.",
  // The transcript
  transcriptLabel: "Conversation",
  transcriptEmpty: "No messages yet. Write the first one below.",
  you: "You",
  model: "Model",
  writing: "The model is writing…",
  stoppedNote: "Stopped. The text so far is kept.",
  failedNote: (error: string) => `The reply failed: ${error}`,
  failedNoReason: "The reply failed.",
  truncatedNote: "Cut at the length limit.",
  emptyReply: "(no text)",
  earlierAttempts: (n: number) => plural(n, { one: "# earlier attempt", other: "# earlier attempts" }),
  earlierAttempt: (n: number) => `Attempt ${formatNumber(n)}`,
  retry: "Retry",
  retrying: "Asking again…",
  stop: "Stop",
  stopName: "Stop the reply",
  stopping: "Stopping…",
  // The judge (judge_model tasks)
  judgeScore: (score: string, threshold: string) => `Judge score ${score} (the model fails at ${threshold} or more)`,
  judgeFailed: "counts as a failure",
  judgePassed: "not a failure",
  judgeNone: "Not scored yet.",
  judgeOfReply: (n: number, score: string, threshold: string) =>
    `Reply ${formatNumber(n)}: judge score ${score} (the model fails at ${threshold} or more)`,
  // The composer
  composerLabel: "Your message",
  send: "Send",
  sending: "Sending…",
  charCount: (used: number, max: number) => `${formatNumber(used)} / ${formatNumber(max)} characters`,
  messagesLeft: (n: number) => plural(n, { one: "# message left", other: "# messages left" }),
  noMessagesLeft: "No messages left: submit the conversation.",
  waitForReply: "Wait for the reply, or stop it.",
  shortcut: "Ctrl+Enter (⌘+Enter) sends.",
  messageEmpty: "Write a message first.",
  messageTooLong: (max: number) => `At most ${formatNumber(max)} characters.`,
  offline: "You are offline: talking to the model needs a connection.",
  // What the live region says, once per reply
  announceReplied: (text: string) => `Model replied: ${text}`,
  announceEmpty: "The model replied with no text.",
  announceStopped: "Reply stopped.",
  announceFailed: (error: string) => `Reply failed: ${error}`,
  // Submitting
  submitTitle: "Submit the conversation",
  categoriesLegend: "Attack categories",
  categoriesHint: "Tick what your messages tried.",
  explanationLabel: "Explanation (optional)",
  failedLegend: "Did the model fail?",
  failedHint: "Did it do what the goal asks for?",
  failedYes: "Yes, it failed",
  failedNo: "No, it held",
  chooseFailed: "Say whether the model failed.",
  judgeHint: (threshold: string) =>
    `A judge model scores every reply; a reply scoring ${threshold} or more means the model failed.`,
  validatorsHint: "Validators will read this conversation and rate how badly the model failed the goal: their ratings decide.",
  submit: "Submit",
  submitting: "Submitting…",
  needReply: "You can submit once the model has replied.",
  verdictTitle: "Verdict",
  newConversation: "New conversation",
  discardQuestion: "Start a new conversation? This one is not submitted and will not count.",
  discard: "Yes, start a new one",
  cancel: "Cancel",
  conversationGone: "That conversation is no longer available; start a new one.",
  submittedNote: "This conversation is submitted.",
  backToBattles: "Back to the battles",
  battleLeaderboard: "Battle leaderboard",
} as const;

export const CHAT_TEXT = localized("chat", CHAT_EN);
