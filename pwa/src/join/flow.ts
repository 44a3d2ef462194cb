/**
 * The pure parts of the join flow: which of a link's parameters are sent to joinCampaign, whether it is an MTurk
 * preview, which page a worker's stage shows, how the completion is handed over (a link, or MTurk's POST form), and
 * how the quota reads. No DOM, no requests: unit-tested in flow.test.ts.
 */
import { currentLocale } from "../i18n/runtime";
import type { CampaignWorkerState, CompletionInfo, CrowdPlatform, WorkerStage } from "./types";
import { JOIN_TEXT } from "./text";

/** The platforms' own parameters (crowd/entry.py); anything else (utm_*, …) stays in the browser. */
export const PLATFORM_PARAMS = [
  "PROLIFIC_PID", "STUDY_ID", "SESSION_ID",
  "workerId", "assignmentId", "hitId", "turkSubmitTo",
  "pid",
] as const;

export const MTURK_PREVIEW = "ASSIGNMENT_ID_NOT_AVAILABLE";

/** The link's platform parameters, every value kept (a repeated one is the server's to refuse), in link order. */
export function joinParams(query: URLSearchParams): { name: string; value: string }[] {
  const known = new Set<string>(PLATFORM_PARAMS);
  const out: { name: string; value: string }[] = [];
  for (const [name, value] of query) if (known.has(name)) out.push({ name, value });
  return out;
}

/** MTurk shows the HIT before it is accepted: assignmentId=ASSIGNMENT_ID_NOT_AVAILABLE. */
export function isMturkPreview(query: URLSearchParams): boolean {
  return query.getAll("assignmentId").includes(MTURK_PREVIEW);
}

/** The key of the browser's id for a campaign's link, kept so a retried join resumes the same account. */
export function clientIdKey(code: string): string {
  return `dynabench.join.${code}`;
}

export type JoinView = "consent" | "quiz" | "work" | "completion";

export function viewOfStage(stage: WorkerStage): JoinView {
  switch (stage) {
    case "CONSENT":
      return "consent";
    case "QUIZ":
      return "quiz";
    case "WORK":
      return "work";
    default:
      return "completion"; // DONE, SCREENED_OUT
  }
}

/** A working worker with nothing left to do goes to the completion page. */
export function viewOfState(state: CampaignWorkerState): JoinView {
  const view = viewOfStage(state.stage);
  return view === "work" && state.quotaDone ? "completion" : view;
}

export type CompletionAction =
  | { kind: "link"; url: string }
  | { kind: "form"; action: string; fields: { name: string; value: string }[] }
  | { kind: "none" };

/** Only https targets are followed: anything else is shown as a code to copy. */
function safeUrl(url: string | null): string | null {
  if (!url) return null;
  try {
    return new URL(url).protocol === "https:" ? url : null;
  } catch {
    return null;
  }
}

/** GET → a link (Prolific, an open campaign's redirect); POST → MTurk's external-submit form; else just the code. */
export function completionAction(info: CompletionInfo): CompletionAction {
  const url = safeUrl(info.url);
  if (!url) return { kind: "none" };
  if ((info.method ?? "GET").toUpperCase() === "POST") return { kind: "form", action: url, fields: info.fields };
  return { kind: "link", url };
}

/** "3 of your 5 examples left today", etc.: the smaller limit first; null when nothing is limited. */
export function quotaLines(state: CampaignWorkerState): string[] {
  const lines: string[] = [];
  const { examplesLeft, examplesLeftToday, validationsLeft, validationsLeftToday } = state;
  if (examplesLeftToday !== null) lines.push(JOIN_TEXT.examplesToday(examplesLeftToday));
  if (examplesLeft !== null) lines.push(JOIN_TEXT.examplesTotal(examplesLeft));
  if (validationsLeftToday !== null) lines.push(JOIN_TEXT.validationsToday(validationsLeftToday));
  if (validationsLeft !== null) lines.push(JOIN_TEXT.validationsTotal(validationsLeft));
  return lines;
}

/** The examples the worker may still write now: the smaller of today's and the campaign's; null: no limit. */
export function examplesNow(state: CampaignWorkerState): number | null {
  const limits = [state.examplesLeft, state.examplesLeftToday].filter((n): n is number => n !== null);
  return limits.length ? Math.min(...limits) : null;
}

export function formatMoney(cents: number, currency: string, locale: string = currentLocale()): string {
  try {
    return new Intl.NumberFormat(locale, { style: "currency", currency }).format(cents / 100);
  } catch {
    return `${(cents / 100).toFixed(2)} ${currency}`;
  }
}

/**
 * The owner's markdown headings sit under the page's own h1/h2: shift them down `by` levels (at most h6). The HTML
 * is the server's sanitized output, whose heading tags carry no attributes.
 */
export function demoteHeadings(html: string, by = 2): string {
  return html.replace(/<(\/?)h([1-6])>/g, (_, slash: string, level: string) => `<${slash}h${Math.min(6, Number(level) + by)}>`);
}

/** A refusal's reason, once: the field messages only when they say more than the message (they often repeat it). */
export function refusalText(message: string, fields: { message: string }[] | undefined): string {
  const extra = (fields ?? []).map((f) => f.message.trim()).filter((m) => m && !message.includes(m));
  return [message, ...new Set(extra)].join(" ");
}

export interface WayBack {
  platform: "PROLIFIC" | "MTURK" | null; // null: an open link, no platform to go back to
  url: string | null; // the platform's own page, where the study or HIT is opened again (or returned)
}

/**
 * Where a worker whose link does not work goes next: the campaign's platform when known (campaignByCode), else the
 * one its parameters name; Prolific's and MTurk's worker sites (MTurk's sandbox when the link came from it).
 */
export function wayBack(platform: CrowdPlatform | null, query: URLSearchParams): WayBack {
  const named = platform ?? (query.has("PROLIFIC_PID") || query.has("STUDY_ID") || query.has("SESSION_ID") ? "PROLIFIC"
    : query.has("workerId") || query.has("assignmentId") || query.has("hitId") ? "MTURK" : null);
  if (named === "PROLIFIC") return { platform: "PROLIFIC", url: "https://app.prolific.com/" };
  if (named === "MTURK") {
    const sandbox = query.get("turkSubmitTo") === "https://workersandbox.mturk.com";
    return { platform: "MTURK", url: sandbox ? "https://workersandbox.mturk.com/" : "https://worker.mturk.com/" };
  }
  return { platform: null, url: null };
}
