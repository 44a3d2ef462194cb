/**
 * Strings of a submitted conversation's transcript (validate page, My examples, browse), in one table (translate in
 * text.es/fr/ar.ts). Interpolations are small functions taking values; components never concatenate.
 */
import { plural } from "../i18n/format";
import { localized } from "../i18n/runtime";

export const TRANSCRIPT_EN = {
  label: "Conversation",
  noMessages: "This conversation has no messages.",
  // Who wrote each message (read before it by screen readers too)
  author: "Author",
  you: "You",
  model: "Model",
  // What the model was told before the conversation, collapsed
  systemTitle: "What the model was told first",
  // The attack categories the author ticked
  categoriesTitle: "Attack categories",
  // A reply
  emptyReply: "(no text)",
  stoppedNote: "The author stopped this reply; the text so far is kept.",
  failedNote: "This reply failed; the text so far is kept.",
  judgeScore: (score: string, threshold: string) => `Judge score ${score} (the model fails at ${threshold} or more)`,
  judgeScoreOnly: (score: string) => `Judge score ${score}`,
  judgeFailed: "counts as a failure",
  judgePassed: "not a failure",
  // The short preview on cards
  previewLabel: "Last exchange",
  showAll: (n: number) =>
    plural(n, { one: "Show the whole conversation (# more message)", other: "Show the whole conversation (# more messages)" }),
  showWhole: "Show the whole conversation",
  showLess: "Show only the last exchange",
} as const;

export const TRANSCRIPT_TEXT = localized("transcript", TRANSCRIPT_EN);
