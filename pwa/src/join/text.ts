/** Every string of the join flow, in one table (translate here). */
import { localized } from "../i18n/runtime";
import { pluralFor } from "../i18n/format";

const p = pluralFor("en");

export const JOIN_EN = {
  joining: "Opening the campaign…",
  retry: "Try again",
  offlineJoin: "You are offline. Connect to the internet to start this campaign.",
  badLink: "This link does not work.",
  nextTitle: "What you can do",
  backToPlatform: (platform: string) => `Return to ${platform} and open the study again from there: its link carries the details this page needs.`,
  backLink: (platform: string) => `Go to ${platform}`,
  backNoPlatform: "Go back to where you found this link and open it again from there.",
  contactResearcher: (platform: string | null) =>
    platform
      ? `If it still does not work, contact the researcher through ${platform}'s messages and tell them what this page says.`
      : "If it still does not work, contact the researcher who gave you this link and tell them what this page says.",
  earnedTotal: (earned: string, pending: string) => `You earned ${earned} in this campaign (${pending} not yet paid).`,
  payHint: "Bonuses are added once your examples are validated; the base pay once you finish.",
  previewTitle: "Preview",
  previewLead: "This is what the task looks like.",
  acceptHit: "Accept the HIT to start.",
  previewNote: "Nothing is recorded until you accept the HIT.",
  consentTitle: "Consent",
  consentLead: "Please read this before you start.",
  consentAccept: "I agree, continue",
  consentDecline: "If you do not agree, close this page and return the study on your platform.",
  quizTitle: "A short quiz",
  quizLead: (passMark: number | null, total: number) =>
    passMark === null ? `Answer the ${total} questions.` : `Answer at least ${passMark} of ${total} questions correctly to start.`,
  attemptsLeft: (n: number) => `${p(n, { one: "# attempt", other: "# attempts" })} left.`,
  question: (i: number, total: number) => `Question ${i} of ${total}`,
  answerLabel: "Your answer",
  chooseOne: "Choose an answer.",
  submitQuiz: "Send my answers",
  quizFailed: (score: number, total: number, left: number) =>
    `You got ${score} of ${total} right. ${p(left, { one: "# attempt", other: "# attempts" })} left: try again.`,
  quizPassed: (score: number, total: number) => `You got ${score} of ${total} right: you can start.`,
  quotaTitle: "Your work",
  examplesToday: (n: number) => `${p(n, { one: "# example", other: "# examples" })} left today`,
  examplesTotal: (n: number) => `${p(n, { one: "# example", other: "# examples" })} left in this campaign`,
  validationsToday: (n: number) => `${p(n, { one: "# validation", other: "# validations" })} left today`,
  validationsTotal: (n: number) => `${p(n, { one: "# validation", other: "# validations" })} left in this campaign`,
  noLimit: "No limit on the number of examples.",
  earned: (earned: string, pending: string) => `Earned so far: ${earned} (${pending} not yet paid).`,
  instructions: "Instructions",
  finish: "Finish",
  finishHint: "Press Finish when you are done: you get your completion code.",
  finishing: "Finishing…",
  offlineFinish: "Connect to the internet to finish: your unsent examples are sent first.",
  completionTitle: "Thank you!",
  screenedTitle: "Thank you for your time",
  completionLead: "Your completion code:",
  screenedLead: "The quiz did not go well enough to continue, so this study ends here. Your code:",
  quotaReached: "You have reached the number of examples for this campaign.",
  goBackProlific: "Return to Prolific",
  goBack: "Return to your platform",
  submitMturk: "Submit the HIT",
  redirecting: "Taking you back…",
  copyCode: "Copy this code into your platform if it asks for it.",
  copy: "Copy the code",
  copied: "Copied.",
} as const;

export const JOIN_TEXT = localized("join", JOIN_EN);
