/** The register / change form of an LLM endpoint: each setting labelled with its hint, each error next to its field
 * (focus on the first); the key field is write-only: for a stored key, keep it, replace it or remove it. */
import { useState } from "preact/hooks";
import type { FieldError } from "../../api/types";
import { FORM_TEXT } from "../../forms/text";
import { ADMIN_TEXT } from "../text";
import type { LlmEndpoint } from "./documents";
import { checkForm, controlId, emptyForm, type EndpointForm as Values, errorId, formOf, type KeyChoice } from "./form";

const T = ADMIN_TEXT.llm;

/** What the page did with the values: done (closes the form), refused fields, or a message for the whole form. */
export type FormAnswer = { ok: true } | { ok: false; fields: FieldError[]; text: string };

function FieldErrors({ field, errors }: { field: string; errors: FieldError[] }) {
  const mine = errors.filter((e) => e.field === field);
  if (!mine.length) return null;
  return <p class="field-error" id={errorId(field)}>{mine.map((e) => e.message).join(" ")}</p>;
}

type TextField = "name" | "baseUrl" | "model" | "timeoutS" | "maxConcurrency" | "tokensPerUserPerDay" | "tokensPerTaskPerDay"
  | "pricePer1kPromptTokens" | "pricePer1kCompletionTokens";

export function EndpointForm({ editing, onSubmit, onCancel }: {
  editing: LlmEndpoint | null;
  onSubmit: (values: Values) => Promise<FormAnswer>;
  onCancel: () => void;
}) {
  const [v, setV] = useState<Values>(() => (editing ? formOf(editing) : emptyForm()));
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [message, setMessage] = useState("");
  const [busy, setBusy] = useState(false);
  const has = (field: string) => errors.some((e) => e.field === field);
  const describedBy = (field: string, hint?: string) => [hint, has(field) ? errorId(field) : ""].filter(Boolean).join(" ") || undefined;
  const titleId = "llm-form-title";

  function showErrors(problems: FieldError[], text: string) {
    setErrors(problems);
    setMessage(text);
    const first = problems.find((p) => document.getElementById(controlId(p.field)));
    if (first) setTimeout(() => document.getElementById(controlId(first.field))?.focus(), 0);
  }

  async function submit(event: Event) {
    event.preventDefault();
    const problems = checkForm(v, editing !== null);
    if (problems.length) return showErrors(problems, FORM_TEXT.fieldsToFix(problems.length));
    setBusy(true);
    setErrors([]);
    setMessage("");
    try {
      const answer = await onSubmit(v);
      if (!answer.ok) {
        if (answer.fields.length) showErrors(answer.fields, T.serverRefused);
        else setMessage(answer.text);
      }
    } finally {
      setBusy(false);
    }
  }

  function text(field: TextField, label: string, options: { hint?: string; type?: string; inputMode?: "decimal" | "numeric" | "url" } = {}) {
    const hintId = options.hint ? `${controlId(field)}-hint` : undefined;
    return (
      <div class="field">
        <label for={controlId(field)}>{label}</label>
        {options.hint && <p class="hint" id={hintId}>{options.hint}</p>}
        <input id={controlId(field)} type={options.type ?? "text"} inputMode={options.inputMode} autocomplete="off" spellcheck={false}
          dir={options.type === "url" || options.inputMode ? "ltr" : "auto"} value={v[field]} readOnly={field === "name" && editing !== null}
          aria-invalid={has(field) || undefined} aria-describedby={describedBy(field, hintId)}
          onInput={(e) => setV({ ...v, [field]: e.currentTarget.value })} />
        <FieldErrors field={field} errors={errors} />
      </div>
    );
  }

  const keyInput = (label: string) => (
    <div class="field">
      <label for={controlId("apiKey")}>{label}</label>
      <input id={controlId("apiKey")} type="password" autocomplete="new-password" spellcheck={false} dir="ltr" value={v.apiKey}
        aria-invalid={has("apiKey") || undefined} aria-describedby={describedBy("apiKey", "llm-apiKey-hint")}
        onInput={(e) => setV({ ...v, apiKey: e.currentTarget.value })} />
      <FieldErrors field="apiKey" errors={errors} />
    </div>
  );
  const choice = (value: KeyChoice, label: string) => (
    <div class="field checkbox">
      <input id={`llm-key-${value}`} type="radio" name="llm-key-choice" checked={v.keyChoice === value}
        onChange={() => setV({ ...v, keyChoice: value, apiKey: value === "replace" ? v.apiKey : "" })} />
      <label for={`llm-key-${value}`}>{label}</label>
    </div>
  );

  return (
    <form class="card" onSubmit={(e) => void submit(e)} noValidate aria-labelledby={titleId} data-testid="llm-endpoint-form">
      <h3 id={titleId}>{editing ? T.editTitle(editing.name) : T.registerTitle}</h3>
      {text("name", T.name, { hint: editing ? undefined : T.nameHint })}
      {text("baseUrl", T.baseUrl, { hint: T.baseUrlHint, type: "url", inputMode: "url" })}
      {text("model", T.model, { hint: T.modelHint })}
      {editing?.hasKey ? (
        <fieldset class="field" aria-describedby="llm-apiKey-hint">
          <legend>{T.keyFieldset}</legend>
          <p class="hint" id="llm-apiKey-hint">{T.keyStored} {T.apiKeyHint}</p>
          {choice("keep", T.keepKey)}
          {choice("replace", T.replaceKey)}
          {v.keyChoice === "replace" && keyInput(T.newKey)}
          {choice("clear", T.clearKey)}
        </fieldset>
      ) : (
        <>
          <p class="hint" id="llm-apiKey-hint">{T.apiKeyHint}</p>
          {keyInput(T.apiKey)}
        </>
      )}
      {text("timeoutS", T.timeoutS, { inputMode: "decimal" })}
      {text("maxConcurrency", T.maxConcurrency, { hint: T.maxConcurrencyHint, inputMode: "numeric" })}
      {text("tokensPerUserPerDay", T.tokensPerUserPerDay, { hint: T.budgetsHint, inputMode: "numeric" })}
      {text("tokensPerTaskPerDay", T.tokensPerTaskPerDay, { inputMode: "numeric" })}
      {text("pricePer1kPromptTokens", T.pricePer1kPromptTokens, { hint: T.pricesHint, inputMode: "decimal" })}
      {text("pricePer1kCompletionTokens", T.pricePer1kCompletionTokens, { inputMode: "decimal" })}
      <div class="field checkbox">
        <input id={controlId("enabled")} type="checkbox" checked={v.enabled} onChange={(e) => setV({ ...v, enabled: e.currentTarget.checked })} />
        <label for={controlId("enabled")}>{T.enabled}</label>
      </div>
      <div class="actions">
        <button type="submit" class="primary" disabled={busy}>{busy ? T.saving : editing ? T.save : T.register}</button>
        <button type="button" onClick={onCancel} disabled={busy}>{ADMIN_TEXT.cancel}</button>
      </div>
      <p role="status" aria-live="polite" class={message ? "error" : ""} data-testid="llm-form-status">{message}</p>
    </form>
  );
}
