/**
 * The webhook page's pure logic: checking the new-hook form as the server would (so most mistakes are caught before a
 * request), where each error's field lives in the page, the rotation grace period, and merging delivery-log pages.
 */
import type { FieldError } from "../../api/types";
import { WEBHOOK_EVENTS, type WebhookAttempt, type WebhookDelivery, type WebhookEventType } from "./documents";

import { DESCRIPTION_MAX, GRACE_MAX_HOURS, URL_MAX } from "./limits";
import { WEBHOOK_TEXT } from "./text";

export { DESCRIPTION_MAX, GRACE_MAX_HOURS, URL_MAX };
export const DEFAULT_GRACE_HOURS = 24;

export interface WebhookFormValues {
  url: string;
  events: WebhookEventType[];
  description: string;
}

export const emptyWebhookForm = (): WebhookFormValues => ({ url: "", events: [], description: "" });

/** The element an error of `field` points at (the first checkbox for the event list). */
export function controlId(field: string): string {
  if (field === "events") return eventControlId(WEBHOOK_EVENTS[0]);
  return `webhook-${field.replace(/[^A-Za-z0-9_-]/g, "-")}`;
}

export const eventControlId = (event: WebhookEventType) => `webhook-event-${event}`;

export const errorId = (field: string) => `webhook-${field.replace(/[^A-Za-z0-9_-]/g, "-")}-error`;

/** Each event ticked or not; the answer keeps the schema's order whatever the order of the clicks. */
export function toggleEvent(chosen: readonly WebhookEventType[], event: WebhookEventType, on: boolean): WebhookEventType[] {
  return WEBHOOK_EVENTS.filter((e) => (e === event ? on : chosen.includes(e)));
}

/** The form's problems, in the order of its fields. https:// is asked for; an http:// URL is left to the server,
 * which takes one only where private targets are allowed (a test or local deployment). */
export function validateWebhookForm(values: WebhookFormValues): FieldError[] {
  const problems: FieldError[] = [];
  const p = WEBHOOK_TEXT.problems;
  const url = values.url.trim();
  if (!url) problems.push({ field: "url", message: p.urlMissing });
  else if (url.length > URL_MAX) problems.push({ field: "url", message: p.urlTooLong(URL_MAX) });
  else if (/\s/.test(url)) problems.push({ field: "url", message: p.urlSpaces });
  else if (!/^https?:\/\//i.test(url)) problems.push({ field: "url", message: p.urlScheme });
  else if (!isUrl(url)) problems.push({ field: "url", message: p.urlInvalid });
  if (!values.events.length) problems.push({ field: "events", message: p.noEvents });
  if (values.description.trim().length > DESCRIPTION_MAX) {
    problems.push({ field: "description", message: p.descriptionTooLong(DESCRIPTION_MAX) });
  }
  return problems;
}

function isUrl(text: string): boolean {
  try {
    return Boolean(new URL(text).hostname);
  } catch {
    return false;
  }
}

/** The grace period typed in the rotation form: a whole number of hours from 0 to a week, or an error message. */
export function parseGraceHours(text: string): number | string {
  const value = text.trim();
  if (!/^\d{1,4}$/.test(value) || Number(value) > GRACE_MAX_HOURS) return WEBHOOK_TEXT.problems.graceHours(GRACE_MAX_HOURS);
  return Number(value);
}

/** The log after one more page: older deliveries appended, none twice (a delivery may move while paging). */
export function mergeDeliveries(shown: readonly WebhookDelivery[], page: readonly WebhookDelivery[]): WebhookDelivery[] {
  const seen = new Set(shown.map((d) => d.id));
  return [...shown, ...page.filter((d) => !seen.has(d.id))];
}

/** One attempt's outcome in a few words: its HTTP status, else why there was none. */
export function attemptOutcome(attempt: Pick<WebhookAttempt, "statusCode" | "error">): string {
  if (attempt.statusCode !== null) {
    const error = attempt.error && attempt.error !== `HTTP ${attempt.statusCode}` ? ` (${attempt.error})` : "";
    return `HTTP ${attempt.statusCode}${error}`;
  }
  return attempt.error || WEBHOOK_TEXT.noAnswer;
}

/** A 2xx answer. */
export const succeeded = (attempt: Pick<WebhookAttempt, "statusCode">) =>
  attempt.statusCode !== null && attempt.statusCode >= 200 && attempt.statusCode < 300;
