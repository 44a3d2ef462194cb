/**
 * Strings of a side-by-side battle (pwa/src/battle, a generative task with `generative.battle`), in one table
 * (translate in text.es/fr/ar.ts). Interpolations are small functions taking values; components never concatenate.
 */
import { localized } from "../i18n/runtime";

export const BATTLE_EN = {
  modeHint: "One prompt, answered side by side by anonymous models. Then vote for the better reply.",
  chatInstead: "Chat with one model instead",
  promptLabel: "Your prompt",
  repliesTitle: "Replies",
  repliesEmpty: "Send a prompt: the models' replies appear here side by side.",
  side: (label: string) => `Model ${label}`,
  writing: "Writing…",
  stop: "Stop",
  stopName: (label: string) => `Stop Model ${label}`,
  stopping: "Stopping…",
  stoppedNote: "Stopped. The text so far is kept.",
  failedNote: (error: string) => `The reply failed: ${error}`,
  failedNoReason: "The reply failed.",
  truncatedNote: "Cut at the length limit.",
  emptyReply: "(no text)",
  announceReplied: (label: string, text: string) => `Model ${label} replied: ${text}`,
  announceEmpty: (label: string) => `Model ${label} replied with no text.`,
  announceStopped: (label: string) => `Model ${label} stopped.`,
  announceFailed: (label: string, error: string) => `Model ${label} failed: ${error}`,
  voteLegend: "Which reply is better?",
  voteWait: "You can vote once every reply has ended.",
  better: (label: string) => `${label} is better`,
  tie: "Tie",
  bothBad: "Both are bad",
  allBad: "All are bad",
  chooseVote: "Choose an answer first.",
  vote: "Vote",
  voting: "Voting…",
  resultTitle: "Result",
  youChose: (choice: string) => `You chose: ${choice}`,
  revealed: (label: string, name: string, version: string) => `Model ${label} was ${name} (version ${version})`,
  revealedNoVersion: (label: string, name: string) => `Model ${label} was ${name}`,
  newBattle: "New battle",
  offline: "You are offline: a battle needs a connection. Your prompt is kept.",
  battleGone: "That battle is no longer available; start a new one.",
} as const;

export const BATTLE_TEXT = localized("battle", BATTLE_EN);
