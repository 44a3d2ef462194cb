/** Every string of the owners' webhooks page, in one table (translate here). */
import { localized } from "../../i18n/runtime";
import type { DeliveryStatus, WebhookEventType } from "./documents";
import { GRACE_MAX_HOURS } from "./limits";

import { formatDateTime as when } from "../../i18n/format";

/** The event names on the wire (not translated). */
export const EVENT_SHORT: Record<WebhookEventType, string> = {
  EXAMPLE_CREATED: "example.created", EXAMPLE_VALIDATED: "example.validated", EXAMPLE_REJECTED: "example.rejected",
  MODEL_DEPLOYED: "model.deployed", MODEL_SCORED: "model.scored", MODEL_FAILED: "model.failed",
  ROUND_OPENED: "round.opened", ROUND_CLOSED: "round.closed",
};

/** What a receiver runs to check a delivery (docs/api.md, Webhooks); the browser test runs it on a real delivery. */
export const VERIFY_SNIPPET = `import hashlib, hmac, time

def verify(secret: str, header: str, body: bytes, tolerance: int = 300) -> bool:
    """header: the X-Dynabench-Signature value; body: the raw request body."""
    parts = [part.split("=", 1) for part in header.split(",") if "=" in part]
    timestamp = next((value for key, value in parts if key == "t"), "")
    if not timestamp.isdigit() or abs(time.time() - int(timestamp)) > tolerance:
        return False  # too old (or from the future): maybe a replay
    signed = timestamp.encode() + b"." + body
    expected = hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest()
    return any(hmac.compare_digest(expected, value) for key, value in parts if key == "v1")`;

export const WEBHOOK_EN = {
  title: (task: string) => `Webhooks of ${task}`,
  lead: "Dynabench POSTs signed JSON to your URL when something happens in this task.",
  backToTask: "Task owner page",
  loading: "Loading…",
  none: "No webhook yet.",
  listTitle: "Your webhooks",

  // The form
  addTitle: "Add a webhook",
  url: "URL",
  urlHint: "An https:// address that answers with a 2xx status.",
  events: "Events",
  eventsHint: "Choose at least one.",
  description: "Description (optional)",
  descriptionHint: "For you: what receives these calls.",
  add: "Add the webhook",
  adding: "Adding…",
  serverRefused: "The server refused the webhook: see the fields below.",
  added: "Webhook added. Copy its signing secret now.",
  fieldName: (field: string) => FIELD_NAMES[field] ?? field,

  // The secret, shown once
  secretTitle: "Signing secret",
  secretLabel: "Signing secret (shown only now)",
  secretOnce: "Store it with your receiver now: you will not see it again. If you lose it, rotate the secret.",
  copy: "Copy the secret",
  copied: "Copied.",
  copyFailed: "Copying failed: select the text and copy it yourself.",
  secretDone: "I have stored it",
  previousUntil: (iso: string) => `The previous secret also signs deliveries until ${when(iso)}.`,
  previousStopped: "The previous secret stopped signing at once.",

  // A hook
  enabled: "Enabled",
  disabled: "Disabled",
  failures: (n: number) => `${n} ${n === 1 ? "delivery" : "deliveries"} in a row failed.`,
  disabledSince: (iso: string) => `Disabled since ${when(iso)}.`,
  rotationUntil: (iso: string) => `The previous secret also signs until ${when(iso)}.`,
  createdAt: (iso: string) => `Added ${when(iso)}`,
  eventsOf: "Events",
  enable: "Enable",
  enableHint: "Enabling starts the failure count afresh.",
  disable: "Disable",
  nowEnabled: "Webhook enabled.",
  nowDisabled: "Webhook disabled.",
  rotate: "Rotate the secret",
  rotateQuestion: "Make a new signing secret?",
  rotateExplain: "The new secret is shown once. The old one keeps signing beside it for the hours you choose, so your receiver can switch without missing a delivery.",
  graceHours: "Keep the old secret for (hours)",
  graceHint: `0 to ${GRACE_MAX_HOURS}. Choose 0 if the old secret leaked: it stops signing at once.`,
  rotateConfirm: "Make the new secret",
  rotated: "New secret made. Copy it now.",
  remove: "Delete",
  removeQuestion: "Delete this webhook and its delivery log? Queued deliveries are dropped.",
  removeConfirm: "Delete the webhook",
  removed: "Webhook deleted.",
  cancel: "Cancel",
  hookPrefix: "Webhook: ",

  // The delivery log
  showLog: "Show the delivery log",
  hideLog: "Hide the delivery log",
  logTitle: "Deliveries (newest first)",
  noDeliveries: "No delivery yet.",
  refresh: "Refresh",
  loadMore: "Load more",
  attemptsTitle: (n: number) => `${n} ${n === 1 ? "attempt" : "attempts"}`,
  attempt: (n: number) => `Attempt ${n}`,
  duration: (ms: number) => `${Math.round(ms)} ms`,
  nextAttempt: (iso: string) => `Next attempt ${when(iso)}`,
  deliveredAt: (iso: string) => `Delivered ${when(iso)}`,
  eventId: "Event id",
  statusText: { PENDING: "Pending", DELIVERED: "Delivered", FAILED: "Failed", CANCELLED: "Cancelled" } as Record<DeliveryStatus, string>,
  eventText: {
    EXAMPLE_CREATED: "An example is written (example.created)",
    EXAMPLE_VALIDATED: "An example is validated (example.validated)",
    EXAMPLE_REJECTED: "An example is rejected (example.rejected)",
    MODEL_DEPLOYED: "A model is deployed (model.deployed)",
    MODEL_SCORED: "A model is scored (model.scored)",
    MODEL_FAILED: "A model fails (model.failed)",
    ROUND_OPENED: "A round opens (round.opened)",
    ROUND_CLOSED: "A round closes (round.closed)",
  } as Record<WebhookEventType, string>,

  // Help
  helpTitle: "Verify signatures",
  helpHeader: "Each delivery carries a header:",
  helpHeaderValue: "X-Dynabench-Signature: t=1767225600,v1=5257a869…",
  helpHow: "t is the time of signing (Unix seconds); v1 is the hex HMAC-SHA256 of “<t>.<body>” under your secret, over the raw body as received. After a rotation a second v1 signs with the old secret: any match is enough. Refuse deliveries whose t is more than 5 minutes away, and use the payload's id (also in X-Dynabench-Delivery) to ignore a retry you already handled.",
  helpSnippetLabel: "A receiver's check, in Python",
  noAnswer: "No answer",
  problems: {
    urlMissing: "Give the URL the deliveries are sent to.",
    urlTooLong: (max: number) => `Give a URL of at most ${max} characters.`,
    urlSpaces: "A URL cannot hold spaces (percent-encode them).",
    urlScheme: "Webhook URLs must start with https://.",
    urlInvalid: "That is not a valid URL.",
    noEvents: "Choose at least one event.",
    descriptionTooLong: (max: number) => `At most ${max} characters.`,
    graceHours: (max: number) => `A whole number of hours from 0 to ${max}.`,
  },
};

const FIELD_NAMES: Record<string, string> = { url: "URL", events: "Events", description: "Description", keepPreviousHours: "Hours" };

export const WEBHOOK_TEXT = localized("webhooks", WEBHOOK_EN);
