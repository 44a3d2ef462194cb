/** One webhook: its URL, events and state; enable/disable, rotate the secret (confirmed), delete (confirmed), its log. */
import { useRef, useState } from "preact/hooks";
import { describeError, request } from "../../api/client";
import { fieldErrors, type FieldError } from "../../api/types";
import { errorText, Status, type Message } from "../status";
import { DeliveryLog } from "./DeliveryLog";
import { DELETE_WEBHOOK, ROTATE_WEBHOOK_SECRET, UPDATE_WEBHOOK, type Webhook } from "./documents";
import { DEFAULT_GRACE_HOURS, GRACE_MAX_HOURS, parseGraceHours } from "./form";
import { type Revealed, SecretPanel } from "./SecretPanel";
import { EVENT_SHORT, WEBHOOK_TEXT as T } from "./text";

interface Props {
  hook: Webhook;
  revealed: Revealed | null;
  onSaved: (hook: Webhook) => void;
  onDeleted: (id: string) => void;
  onReveal: (revealed: Revealed | null) => void;
}

export function WebhookCard({ hook, revealed, onSaved, onDeleted, onReveal }: Props) {
  const [confirming, setConfirming] = useState<"rotate" | "delete" | null>(null);
  const [hours, setHours] = useState(String(DEFAULT_GRACE_HOURS));
  const [hoursError, setHoursError] = useState<string | null>(null);
  const [message, setMessage] = useState<Message>(null);
  const [busy, setBusy] = useState(false);
  const [logOpen, setLogOpen] = useState(false);
  const hoursField = useRef<HTMLInputElement>(null);
  const base = `hook-${hook.id.replace(/[^A-Za-z0-9_-]/g, "")}`;

  async function act(run: () => Promise<void>) {
    setBusy(true);
    setMessage(null);
    try {
      await run();
    } catch (problem) {
      setMessage({ text: describeError(problem), ok: false });
    } finally {
      setBusy(false);
    }
  }

  const toggle = () => act(async () => {
    const { updateWebhook: result } = await request(UPDATE_WEBHOOK, { webhookId: hook.id, enabled: !hook.enabled });
    if (result.__typename !== "WebhookSaved") return setMessage({ text: errorText(result), ok: false });
    onSaved(result.webhook);
    setMessage({ text: result.webhook.enabled ? T.nowEnabled : T.nowDisabled, ok: true });
  });

  const rotate = () => {
    const grace = parseGraceHours(hours);
    if (typeof grace === "string") {
      setHoursError(grace);
      hoursField.current?.focus();
      return;
    }
    setHoursError(null);
    return act(async () => {
      const { rotateWebhookSecret: result } = await request(ROTATE_WEBHOOK_SECRET, { webhookId: hook.id, keepPreviousHours: grace });
      if (result.__typename !== "WebhookSecretRotated") {
        const field: FieldError | undefined = fieldErrors(result).find((f) => f.field === "keepPreviousHours");
        if (field) {
          setHoursError(field.message);
          hoursField.current?.focus();
        } else setMessage({ text: errorText(result), ok: false });
        return;
      }
      onSaved(result.webhook);
      setConfirming(null);
      setMessage({ text: T.rotated, ok: true });
      onReveal({ webhookId: hook.id, secret: result.secret, rotated: true, previousSecretValidUntil: result.previousSecretValidUntil });
    });
  };

  const remove = () => act(async () => {
    const { deleteWebhook: result } = await request(DELETE_WEBHOOK, { webhookId: hook.id });
    if (result.__typename !== "WebhookDeleted") return setMessage({ text: errorText(result), ok: false });
    onDeleted(hook.id);
  });

  return (
    <li class="card" data-testid="webhook">
      <h3 id={`${base}-title`} class="example-text" style={{ overflowWrap: "anywhere" }}>
        <span class="visually-hidden">{T.hookPrefix}</span>{hook.url}
      </h3>
      {hook.description && <p>{hook.description}</p>}
      <p class="example-row-head">
        <span class="status-tag" data-testid="webhook-state">{hook.enabled ? T.enabled : T.disabled}</span>
        <span class="hint">{T.createdAt(hook.createdAt)}</span>
      </p>
      {!hook.enabled && hook.disabledReason && <p class="note" data-testid="webhook-disabled-reason">{hook.disabledReason}</p>}
      {!hook.enabled && hook.disabledAt && <p class="hint">{T.disabledSince(hook.disabledAt)}</p>}
      {hook.consecutiveFailures > 0 && <p class="error" data-testid="webhook-failures">{T.failures(hook.consecutiveFailures)}</p>}
      {hook.previousSecretValidUntil && <p class="hint">{T.rotationUntil(hook.previousSecretValidUntil)}</p>}
      <p class="hint">{T.eventsOf}: {hook.events.map((e) => EVENT_SHORT[e]).join(", ")}</p>
      {revealed && <SecretPanel revealed={revealed} onDone={() => onReveal(null)} />}

      <div class="actions">
        <button type="button" disabled={busy} onClick={() => void toggle()} aria-describedby={hook.enabled ? undefined : `${base}-enable-hint`}>
          {hook.enabled ? T.disable : T.enable}
        </button>
        <button type="button" disabled={busy} aria-expanded={confirming === "rotate"} onClick={() => setConfirming(confirming === "rotate" ? null : "rotate")}>{T.rotate}</button>
        <button type="button" class="danger" disabled={busy} aria-expanded={confirming === "delete"} onClick={() => setConfirming(confirming === "delete" ? null : "delete")}>{T.remove}</button>
      </div>
      {!hook.enabled && <p class="hint" id={`${base}-enable-hint`}>{T.enableHint}</p>}

      {confirming === "rotate" && (
        <div class="card" role="group" aria-labelledby={`${base}-rotate-q`}>
          <p id={`${base}-rotate-q`}><strong>{T.rotateQuestion}</strong></p>
          <p class="hint">{T.rotateExplain}</p>
          <div class="field">
            <label for={`${base}-hours`}>{T.graceHours}</label>
            <p class="hint" id={`${base}-hours-hint`}>{T.graceHint}</p>
            <input id={`${base}-hours`} ref={hoursField} type="number" inputMode="numeric" min={0} max={GRACE_MAX_HOURS} step={1} value={hours}
              aria-invalid={hoursError ? true : undefined}
              aria-describedby={`${base}-hours-hint${hoursError ? ` ${base}-hours-error` : ""}`}
              onInput={(e) => setHours(e.currentTarget.value)} />
            {hoursError && <p class="field-error" id={`${base}-hours-error`}>{hoursError}</p>}
          </div>
          <div class="actions">
            <button type="button" class="primary" disabled={busy} onClick={() => void rotate()}>{T.rotateConfirm}</button>
            <button type="button" disabled={busy} onClick={() => setConfirming(null)}>{T.cancel}</button>
          </div>
        </div>
      )}
      {confirming === "delete" && (
        <div class="card" role="group" aria-labelledby={`${base}-delete-q`}>
          <p id={`${base}-delete-q`}><strong>{T.removeQuestion}</strong></p>
          <div class="actions">
            <button type="button" class="danger" disabled={busy} onClick={() => void remove()}>{T.removeConfirm}</button>
            <button type="button" disabled={busy} onClick={() => setConfirming(null)}>{T.cancel}</button>
          </div>
        </div>
      )}
      <Status message={message} testId="webhook-status" />

      <div class="actions">
        <button type="button" aria-expanded={logOpen} aria-controls={`${base}-log`} onClick={() => setLogOpen(!logOpen)}>
          {logOpen ? T.hideLog : T.showLog}
        </button>
      </div>
      <div id={`${base}-log`}>{logOpen && <DeliveryLog webhookId={hook.id} />}</div>
    </li>
  );
}
