/** The campaign form (create and edit): every CampaignInput field, checked in the browser as the server would. */
import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import type { FieldError } from "../../api/types";
import { FORM_TEXT } from "../../forms/text";
import { CAMPAIGN_TEXT as T } from "./text";
import { controlId, inputOf, PAY_NAMES, QUOTA_NAMES, validateForm, type CampaignFormValues, type CampaignInput } from "./form";

function Field({ name, label, hint, errors, children }: { name: string; label: string; hint?: string; errors: FieldError[]; children: ComponentChildren }) {
  const mine = errors.filter((e) => e.field === name);
  return (
    <div class="field">
      <label for={controlId(name)}>{label}</label>
      {hint && <p class="hint" id={`${controlId(name)}-hint`}>{hint}</p>}
      {children}
      {mine.map((e) => <p class="field-error" id={`${controlId(name)}-error`} key={e.message}>{e.message}</p>)}
    </div>
  );
}

function describedBy(name: string, errors: FieldError[], hint = false): string | undefined {
  const ids = [hint ? `${controlId(name)}-hint` : "", errors.some((e) => e.field === name) ? `${controlId(name)}-error` : ""].filter(Boolean);
  return ids.length ? ids.join(" ") : undefined;
}

export function CampaignForm({
  initial,
  creating,
  submitLabel,
  onSubmit,
}: {
  initial: CampaignFormValues;
  creating: boolean;
  submitLabel: string;
  onSubmit: (input: CampaignInput) => Promise<FieldError[] | string | null>;
}) {
  const [v, setV] = useState(initial);
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (change: Partial<CampaignFormValues>) => setV((current) => ({ ...current, ...change }));

  function text(name: keyof CampaignFormValues, label: string, options: { hint?: string; multiline?: boolean; inputMode?: string } = {}) {
    const value = v[name] as string;
    const props = {
      id: controlId(name),
      value,
      "aria-invalid": errors.some((e) => e.field === name) || undefined,
      "aria-describedby": describedBy(name, errors, Boolean(options.hint)),
      onInput: (e: Event) => set({ [name]: (e.target as HTMLInputElement).value } as Partial<CampaignFormValues>),
    };
    return (
      <Field name={name} label={label} hint={options.hint} errors={errors}>
        {options.multiline ? <textarea dir="auto" rows={6} {...props} /> : <input dir="auto" inputMode={options.inputMode as "numeric" | undefined} {...props} />}
      </Field>
    );
  }

  function number(name: string, label: string, value: string, change: (value: string) => void, hint?: string, numeric = true) {
    return (
      <Field name={name} label={label} hint={hint} errors={errors} key={name}>
        <input dir="auto"
          id={controlId(name)}
          inputMode={numeric ? "numeric" : "text"}
          value={value}
          aria-invalid={errors.some((e) => e.field === name) || undefined}
          aria-describedby={describedBy(name, errors, Boolean(hint))}
          onInput={(e) => change((e.target as HTMLInputElement).value)}
        />
      </Field>
    );
  }

  async function submit(event: Event) {
    event.preventDefault();
    const problems = validateForm(v, creating);
    setErrors(problems);
    setMessage(null);
    if (problems.length) {
      setMessage(FORM_TEXT.fieldsToFix(problems.length));
      document.getElementById(controlId(problems[0].field))?.focus();
      return;
    }
    setBusy(true);
    try {
      const answer = await onSubmit(inputOf(v));
      if (Array.isArray(answer)) {
        setErrors(answer);
        setMessage(T.serverRefused);
      } else setMessage(answer);
    } finally {
      setBusy(false);
    }
  }

  const updateQuestion = (i: number, change: Partial<CampaignFormValues["questions"][number]>) =>
    set({ questions: v.questions.map((q, j) => (j === i ? { ...q, ...change } : q)) });

  return (
    <form class="card campaign-form" onSubmit={(e) => void submit(e)} noValidate data-testid="campaign-form">
      <p role="status" aria-live="polite" class={errors.length ? "error" : "notice-ok"} data-testid="campaign-form-status">{message}</p>
      {errors.length > 0 && (
        <ul class="field-errors">{errors.map((e) => <li key={`${e.field}:${e.message}`}><a href={`#${controlId(e.field)}`}>{T.fieldName(e.field)}</a>: {e.message}</li>)}</ul>
      )}
      <fieldset class="field">
        <legend>{T.general}</legend>
        {text("title", T.title)}
        <Field name="platform" label={T.platform} errors={errors}>
          <select id={controlId("platform")} value={v.platform} onChange={(e) => set({ platform: (e.target as HTMLSelectElement).value as CampaignFormValues["platform"] })}>
            <option value="PROLIFIC">Prolific</option>
            <option value="MTURK">MTurk</option>
            <option value="OPEN">{T.openLink}</option>
          </select>
        </Field>
        <Field name="status" label={T.status} errors={errors}>
          <select id={controlId("status")} value={v.status} onChange={(e) => set({ status: (e.target as HTMLSelectElement).value as CampaignFormValues["status"] })}>
            <option value="DRAFT">{T.statusText.DRAFT}</option>
            <option value="OPEN">{T.statusText.OPEN}</option>
            <option value="CLOSED">{T.statusText.CLOSED}</option>
          </select>
        </Field>
        {text("roundNumber", T.roundNumber, { inputMode: "numeric", hint: creating ? T.roundHint : T.roundEditHint })}
        {text("consent", T.consent, { multiline: true, hint: T.markdownHint })}
        {text("instructions", T.instructions, { multiline: true, hint: T.markdownHint })}
      </fieldset>

      <fieldset class="field">
        <legend>{T.quiz}</legend>
        <p class="hint">{T.quizHint}</p>
        {v.questions.map((q, i) => (
          <div class="card quiz-question" key={i}>
            <h3>{T.questionN(i + 1)}</h3>
            {number(`quiz.questions.${i}.prompt`, T.prompt, q.prompt, (prompt) => updateQuestion(i, { prompt }), undefined, false)}
            <Field name={`quiz.questions.${i}.choices`} label={T.choices} hint={T.choicesHint} errors={errors}>
              <textarea dir="auto"
                id={controlId(`quiz.questions.${i}.choices`)}
                rows={3}
                value={q.choices}
                aria-describedby={describedBy(`quiz.questions.${i}.choices`, errors, true)}
                onInput={(e) => updateQuestion(i, { choices: (e.target as HTMLTextAreaElement).value })}
              />
            </Field>
            {number(`quiz.questions.${i}.answer`, T.answer, q.answer, (answer) => updateQuestion(i, { answer }), T.answerHint, false)}
            <button type="button" class="danger" onClick={() => set({ questions: v.questions.filter((_, j) => j !== i) })}>{T.removeQuestion(i + 1)}</button>
          </div>
        ))}
        <div class="actions">
          <button type="button" onClick={() => set({ questions: [...v.questions, { prompt: "", choices: "", answer: "" }] })}>{T.addQuestion}</button>
        </div>
        {v.questions.length > 0 && number("quiz.passMark", T.passMark, v.passMark, (passMark) => set({ passMark }))}
        {v.questions.length > 0 && number("quiz.attempts", T.attempts, v.attempts, (attempts) => set({ attempts }))}
      </fieldset>

      <fieldset class="field">
        <legend>{T.quotas}</legend>
        <p class="hint">{T.quotasHint}</p>
        {QUOTA_NAMES.map((n) => number(`quotas.${n}`, T.quotaText[n], v.quotas[n], (value) => set({ quotas: { ...v.quotas, [n]: value } })))}
      </fieldset>

      <fieldset class="field">
        <legend>{T.pay}</legend>
        {text("currency", T.currency)}
        {PAY_NAMES.map((n) => number(`pay.${n}`, T.payText[n], v.pay[n], (value) => set({ pay: { ...v.pay, [n]: value } })))}
        {number("pay.bonusCapCents", T.bonusCap, v.bonusCapCents, (bonusCapCents) => set({ bonusCapCents }), T.bonusCapHint)}
      </fieldset>

      <fieldset class="field">
        <legend>{T.completion}</legend>
        {text("completionCode", T.completionCode)}
        {text("failureCode", T.failureCode, { hint: T.failureHint })}
        {text("completionRedirect", T.redirect, { hint: T.redirectHint })}
      </fieldset>
      <div class="actions">
        <button type="submit" class="primary" disabled={busy}>{submitLabel}</button>
      </div>
    </form>
  );
}
