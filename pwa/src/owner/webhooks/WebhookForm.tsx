/** The new-webhook form: URL, events, description; each error next to its field, focus on the first. */
import { useState } from "preact/hooks";
import type { FieldError } from "../../api/types";
import { FORM_TEXT } from "../../forms/text";
import { WEBHOOK_EVENTS } from "./documents";
import { controlId, DESCRIPTION_MAX, emptyWebhookForm, errorId, eventControlId, toggleEvent, URL_MAX, validateWebhookForm, type WebhookFormValues } from "./form";
import { WEBHOOK_TEXT as T } from "./text";

/** The server's answer: done (a message), refused fields, or a message for the whole form. */
export type FormAnswer = { ok: true; text: string } | { ok: false; fields: FieldError[]; text: string };

function FieldErrors({ field, errors }: { field: string; errors: FieldError[] }) {
  const mine = errors.filter((e) => e.field === field);
  if (!mine.length) return null;
  return <p class="field-error" id={errorId(field)}>{mine.map((e) => e.message).join(" ")}</p>;
}

export function WebhookForm({ onSubmit }: { onSubmit: (values: WebhookFormValues) => Promise<FormAnswer> }) {
  const [v, setV] = useState<WebhookFormValues>(emptyWebhookForm);
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [message, setMessage] = useState<{ text: string; ok: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const has = (field: string) => errors.some((e) => e.field === field);
  const describedBy = (field: string, hint: string) => [hint, has(field) ? errorId(field) : ""].filter(Boolean).join(" ");

  function showErrors(problems: FieldError[], text: string) {
    setErrors(problems);
    setMessage({ text, ok: false });
    const first = problems.find((p) => document.getElementById(controlId(p.field)));
    if (first) setTimeout(() => document.getElementById(controlId(first.field))?.focus(), 0);
  }

  async function submit(event: Event) {
    event.preventDefault();
    const problems = validateWebhookForm(v);
    if (problems.length) return showErrors(problems, FORM_TEXT.fieldsToFix(problems.length));
    setBusy(true);
    setErrors([]);
    setMessage(null);
    try {
      const answer = await onSubmit(v);
      if (answer.ok) {
        setV(emptyWebhookForm());
        setMessage({ text: answer.text, ok: true });
      } else if (answer.fields.length) showErrors(answer.fields, T.serverRefused);
      else setMessage({ text: answer.text, ok: false });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form class="card" onSubmit={(e) => void submit(e)} noValidate aria-labelledby="add-webhook-title" data-testid="webhook-form">
      <h2 id="add-webhook-title">{T.addTitle}</h2>
      <div class="field">
        <label for={controlId("url")}>{T.url}</label>
        <p class="hint" id="webhook-url-hint">{T.urlHint}</p>
        <input id={controlId("url")} type="url" inputMode="url" autocomplete="off" spellcheck={false} maxLength={URL_MAX}
          placeholder="https://" value={v.url} aria-invalid={has("url") || undefined} aria-describedby={describedBy("url", "webhook-url-hint")}
          onInput={(e) => setV({ ...v, url: e.currentTarget.value })} />
        <FieldErrors field="url" errors={errors} />
      </div>
      <fieldset class="field" aria-describedby={describedBy("events", "webhook-events-hint")}>
        <legend>{T.events}</legend>
        <p class="hint" id="webhook-events-hint">{T.eventsHint}</p>
        <FieldErrors field="events" errors={errors} />
        {WEBHOOK_EVENTS.map((event) => (
          <div class="field checkbox" key={event}>
            <input id={eventControlId(event)} type="checkbox" checked={v.events.includes(event)} aria-invalid={has("events") || undefined}
              onChange={(e) => setV({ ...v, events: toggleEvent(v.events, event, e.currentTarget.checked) })} />
            <label for={eventControlId(event)}>{T.eventText[event]}</label>
          </div>
        ))}
      </fieldset>
      <div class="field">
        <label for={controlId("description")}>{T.description}</label>
        <p class="hint" id="webhook-description-hint">{T.descriptionHint}</p>
        <input dir="auto" id={controlId("description")} type="text" maxLength={DESCRIPTION_MAX} value={v.description}
          aria-invalid={has("description") || undefined} aria-describedby={describedBy("description", "webhook-description-hint")}
          onInput={(e) => setV({ ...v, description: e.currentTarget.value })} />
        <FieldErrors field="description" errors={errors} />
      </div>
      <div class="actions">
        <button type="submit" class="primary" disabled={busy}>{busy ? T.adding : T.add}</button>
      </div>
      <p role="status" aria-live="polite" class={message ? (message.ok ? "notice-ok" : "error") : ""} data-testid="webhook-form-status">
        {message?.text}
      </p>
    </form>
  );
}
