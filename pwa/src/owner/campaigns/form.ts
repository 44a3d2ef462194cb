/**
 * The campaign form's pure parts: the values as typed (strings), the client-side checks (the server's own limits and
 * messages, server/campaigns/service.py and the pure rules beside it), and the CampaignInput sent to createCampaign /
 * updateCampaign. Unit-tested in form.test.ts.
 */
import type { FieldError } from "../../api/types";
import type { CampaignStatus, CrowdPlatform } from "../../join/types";
import { CAMPAIGN_TEXT } from "./text";

export const LIMITS = {
  title: 200,
  markdown: 50_000,
  prompt: 2000,
  choices: 20,
  choice: 200,
  answer: 2000,
  questions: 50,
  attempts: 10,
  quota: 1_000_000,
  cents: 100_000_00,
  redirect: 2000,
} as const;

export const QUOTA_NAMES = ["examplesPerDay", "examplesPerCampaign", "validationsPerDay", "validationsPerCampaign", "exampleBudget"] as const;
export type QuotaName = (typeof QUOTA_NAMES)[number];
export const PAY_NAMES = ["baseCents", "foolingBonusCents", "agreementBonusCents"] as const;
export type PayName = (typeof PAY_NAMES)[number];

export interface QuestionValues {
  prompt: string;
  choices: string; // one per line; empty: a free-text answer
  answer: string;
}

export interface CampaignFormValues {
  title: string;
  platform: CrowdPlatform;
  status: CampaignStatus;
  roundNumber: string;
  consent: string;
  instructions: string;
  questions: QuestionValues[];
  passMark: string;
  attempts: string;
  quotas: Record<QuotaName, string>;
  currency: string;
  pay: Record<PayName, string>;
  bonusCapCents: string;
  completionCode: string;
  failureCode: string;
  completionRedirect: string;
}

/** The settings the API answers (CampaignSettings) and takes (CampaignInput) alike. */
interface CampaignCommon {
  title: string;
  platform: CrowdPlatform;
  status: CampaignStatus;
  consent: string;
  instructions: string;
  quotas: Record<QuotaName, number | null>;
  currency: string;
  baseCents: number;
  foolingBonusCents: number;
  agreementBonusCents: number;
  bonusCapCents: number | null;
  completionCode: string;
  failureCode: string;
  completionRedirect: string | null;
}

type QuizQuestion = { prompt: string; choices: string[]; answer: string };

/** What the API answers for a campaign (the owner's view), as far as the form needs it. */
export interface CampaignSettings extends CampaignCommon {
  quiz: QuizQuestion[];
  quizPassMark: number | null;
  quizAttempts: number | null;
}

export interface CampaignInput extends CampaignCommon {
  roundNumber?: number;
  quiz: { questions: QuizQuestion[]; passMark: number; attempts: number } | null;
}

const emptyQuotas = (): Record<QuotaName, string> =>
  Object.fromEntries(QUOTA_NAMES.map((n) => [n, ""])) as Record<QuotaName, string>;

export function emptyForm(roundNumber: number | null): CampaignFormValues {
  return {
    title: "",
    platform: "PROLIFIC",
    status: "DRAFT",
    roundNumber: roundNumber === null ? "" : String(roundNumber),
    consent: "",
    instructions: "",
    questions: [],
    passMark: "",
    attempts: "1",
    quotas: emptyQuotas(),
    currency: "GBP",
    pay: { baseCents: "0", foolingBonusCents: "0", agreementBonusCents: "0" },
    bonusCapCents: "",
    completionCode: "",
    failureCode: "",
    completionRedirect: "",
  };
}

const str = (n: number | null | undefined) => (n === null || n === undefined ? "" : String(n));

export function formOf(c: CampaignSettings, roundNumber: number | null): CampaignFormValues {
  return {
    title: c.title,
    platform: c.platform,
    status: c.status,
    roundNumber: str(roundNumber),
    consent: c.consent,
    instructions: c.instructions,
    questions: c.quiz.map((q) => ({ prompt: q.prompt, choices: q.choices.join("\n"), answer: q.answer })),
    passMark: str(c.quizPassMark),
    attempts: str(c.quizAttempts ?? 1),
    quotas: Object.fromEntries(QUOTA_NAMES.map((n) => [n, str(c.quotas[n])])) as Record<QuotaName, string>,
    currency: c.currency,
    pay: { baseCents: str(c.baseCents), foolingBonusCents: str(c.foolingBonusCents), agreementBonusCents: str(c.agreementBonusCents) },
    bonusCapCents: str(c.bonusCapCents),
    completionCode: c.completionCode,
    failureCode: c.failureCode,
    completionRedirect: c.completionRedirect ?? "",
  };
}

export const choicesOf = (text: string) => text.split("\n").map((c) => c.trim()).filter(Boolean);

/** A whole number from min to max, or null (empty when allowed); NaN when it is not one. */
function whole(text: string): number | null {
  const t = text.trim();
  if (!t) return null;
  return /^\d+$/.test(t) ? Number(t) : NaN;
}

const inRange = (n: number | null, min: number, max: number) => n !== null && Number.isInteger(n) && n >= min && n <= max;

function httpsProblem(url: string): string | null {
  if (url.length > LIMITS.redirect) return CAMPAIGN_TEXT.problems.redirectTooLong(LIMITS.redirect);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return CAMPAIGN_TEXT.problems.redirectInvalid;
  }
  if (parsed.protocol !== "https:" || !parsed.hostname) return CAMPAIGN_TEXT.problems.redirectHttps;
  if (parsed.username || parsed.password) return CAMPAIGN_TEXT.problems.redirectCredentials;
  return null;
}

const CODE = /^[A-Za-z0-9_-]{1,64}$/;

/** Every problem at once, with the server's field names and messages. */
export function validateForm(v: CampaignFormValues, creating: boolean): FieldError[] {
  const problems: FieldError[] = [];
  const add = (field: string, message: string) => problems.push({ field, message });
  const t = CAMPAIGN_TEXT.problems;
  const title = v.title.trim();
  if (title.length < 1 || title.length > LIMITS.title) add("title", t.title(LIMITS.title));
  if (creating || v.roundNumber.trim()) {
    const round = whole(v.roundNumber);
    if (!inRange(round, 1, 2 ** 31 - 1)) add("roundNumber", t.roundNumber);
  }
  for (const name of ["consent", "instructions"] as const) {
    if (v[name].length > LIMITS.markdown) add(name, t.markdown(LIMITS.markdown));
  }
  if (v.status === "OPEN" && !v.consent.trim()) add("consent", t.consent);
  if (v.questions.length) {
    if (v.questions.length > LIMITS.questions) add("quiz.questions", t.questions(LIMITS.questions));
    v.questions.forEach((q, i) => {
      const choices = choicesOf(q.choices);
      if (!q.prompt.trim() || q.prompt.length > LIMITS.prompt) add(`quiz.questions.${i}.prompt`, t.prompt(LIMITS.prompt));
      if (choices.length > LIMITS.choices || choices.some((c) => c.length > LIMITS.choice)) {
        add(`quiz.questions.${i}.choices`, t.choices(LIMITS.choices, LIMITS.choice));
      }
      if (!q.answer.trim() || q.answer.length > LIMITS.answer) add(`quiz.questions.${i}.answer`, t.answer);
      else if (choices.length && !choices.includes(q.answer.trim())) add(`quiz.questions.${i}.answer`, t.answerNotChoice);
    });
    if (!inRange(whole(v.passMark), 1, v.questions.length)) {
      add("quiz.passMark", t.passMark(v.questions.length));
    }
    if (!inRange(whole(v.attempts), 1, LIMITS.attempts)) add("quiz.attempts", t.attempts(LIMITS.attempts));
  }
  for (const name of QUOTA_NAMES) {
    const n = whole(v.quotas[name]);
    if (n !== null && !inRange(n, 0, LIMITS.quota)) add(`quotas.${name}`, t.quota(LIMITS.quota));
  }
  if (!/^[A-Z]{3}$/.test(v.currency)) add("currency", t.currency);
  const cents = t.cents(LIMITS.cents);
  for (const name of PAY_NAMES) if (!inRange(whole(v.pay[name]), 0, LIMITS.cents)) add(`pay.${name}`, cents);
  const cap = whole(v.bonusCapCents);
  if (cap !== null && !inRange(cap, 0, LIMITS.cents)) add("pay.bonusCapCents", cents);
  if (!CODE.test(v.completionCode)) add("completionCode", t.completionCode);
  if (!CODE.test(v.failureCode)) add("failureCode", t.failureCode);
  else if (v.failureCode === v.completionCode) add("failureCode", t.failureSame);
  if (v.completionRedirect.trim()) {
    const problem = httpsProblem(v.completionRedirect.trim());
    if (problem) add("completionRedirect", problem);
  }
  return problems;
}

const num = (text: string) => (text.trim() ? Number(text.trim()) : null);

/** The input for the API (call after validateForm found nothing). */
export function inputOf(v: CampaignFormValues): CampaignInput {
  const input: CampaignInput = {
    platform: v.platform,
    title: v.title.trim(),
    status: v.status,
    consent: v.consent,
    instructions: v.instructions,
    quiz: v.questions.length
      ? {
          questions: v.questions.map((q) => ({ prompt: q.prompt.trim(), choices: choicesOf(q.choices), answer: q.answer.trim() })),
          passMark: Number(v.passMark),
          attempts: Number(v.attempts),
        }
      : null,
    quotas: Object.fromEntries(QUOTA_NAMES.map((n) => [n, num(v.quotas[n])])) as Record<QuotaName, number | null>,
    currency: v.currency,
    baseCents: Number(v.pay.baseCents),
    foolingBonusCents: Number(v.pay.foolingBonusCents),
    agreementBonusCents: Number(v.pay.agreementBonusCents),
    bonusCapCents: num(v.bonusCapCents),
    completionCode: v.completionCode,
    failureCode: v.failureCode,
    completionRedirect: v.completionRedirect.trim() || null,
  };
  if (v.roundNumber.trim()) input.roundNumber = Number(v.roundNumber);
  return input;
}

/** The HTML id of a field's control, from a (server or client) field name. */
export function controlId(field: string): string {
  return `campaign-${field.replace(/\./g, "-")}`;
}
