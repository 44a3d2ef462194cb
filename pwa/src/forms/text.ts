/** Every string of the annotation form components, in one table (translate here). */
import { localized } from "../i18n/runtime";

export const FORM_EN = {
  required: "Required",
  fieldsToFix: (n: number) => `${n} ${n === 1 ? "field needs" : "fields need"} fixing.`,
  optional: "optional",
  characters: (used: number, max: number) => `${used} / ${max} characters`,
  missing: "Fill this in.",
  missingChoice: "Choose one.",
  missingSpan: "Select a span in the text.",
  tooLong: (max: number) => `At most ${max} characters.`,
  notNumber: "Enter a number.",
  belowMin: (min: number) => `At least ${min}.`,
  aboveMax: (max: number) => `At most ${max}.`,
  offStep: (step: number, min: number) => `Use steps of ${step} from ${min}.`,
  unknownChoice: "Choose one of the options.",
  tooFewSelected: (n: number) => `Choose at least ${n}.`,
  tooManySelected: (n: number) => `Choose at most ${n}.`,
  badRating: (scale: number) => `Choose 1 to ${scale}.`,
  badSpan: "The selected span is not inside the text.",
  selectPrompt: "Choose…",
  ratingOf: (value: number, scale: number) => `${value} of ${scale}`,
  rangeMin: (min: number) => `min ${min}`,
  rangeMax: (max: number) => `max ${max}`,
  selectionLimits: (min: number, max: number | null) =>
    max === null ? `Choose at least ${min}.` : min > 0 ? `Choose ${min} to ${max}.` : `Choose up to ${max}.`,
  spanHint: (of: string) => `Select the span in “${of}” with the mouse or your finger.`,
  spanNone: "Nothing selected yet.",
  spanSelected: (text: string) => `Selected: “${text}”`,
  spanClear: "Clear the selection",
  spanUse: "Use the selected text",
  spanNoContext: "This text is not available.",
  yes: "Yes",
  no: "No",
  // After the verdict: the task's follow-up questions (show_when fooled / not_fooled).
  followUpTitle: "A few more questions",
  followUpLeadFooled: "You fooled the model. Tell us a little more about this example.",
  followUpLeadNotFooled: "The model got it right. Tell us a little more about this example.",
  followUpSend: "Send the answers",
  followUpSending: "Sending…",
  followUpSent: "Your answers are saved with the example.",
  followUpOffline: "Reconnect to send these answers.",
  followUpFix: "Check the highlighted answers.",
  // The validate page: fields asked with a vote.
  voteFieldsTitle: (vote: string) => `Your vote: ${vote}`,
  voteFieldsLead: "Answer these, then send the vote.",
  voteSend: "Send the vote",
  voteCancel: "Choose another vote",
};

export const FORM_TEXT = localized("forms", FORM_EN);
