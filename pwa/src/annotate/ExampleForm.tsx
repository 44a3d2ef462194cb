/**
 * The annotator's inputs: the task's always-shown input fields (through the form component registry,
 * pwa/src/forms/), the intended label (or the QA answer), sandbox, submit.
 */
import { useRef } from "preact/hooks";
import type { FieldError, TaskConfig } from "../api/types";
import { FormFields } from "../forms/FormFields";
import type { FieldSpec } from "../forms/specs";
import type { FormErrors } from "../forms/values";
import { contextTitles, labelName, labelsOf } from "../tasks/config";
import type { Draft } from "./drafts";
import { ANNOTATE_TEXT as T } from "./text";

interface Props {
  config: TaskConfig;
  fields: FieldSpec[]; // the always-shown input fields
  draft: Draft;
  passage: string | null; // QA only
  errors: FieldError[];
  busy: boolean;
  online: boolean;
  onChange: (change: (draft: Draft) => Draft) => void;
  onSubmit: () => void;
}

const INPUT_PREFIX = "input-";
export const inputId = (name: string) => `${INPUT_PREFIX}${name}`;

/** Problems of the input fields (paths "fields.<name>"), by field name. */
export function fieldErrors(fields: FieldSpec[], errors: FieldError[]): FormErrors {
  const out: FormErrors = {};
  for (const spec of fields) {
    const message = errors.find((e) => e.field === `fields.${spec.name}` || e.field.startsWith(`fields.${spec.name}.`))?.message;
    if (message) out[spec.name] = message;
  }
  return out;
}

export function errorFor(errors: FieldError[], ...fields: string[]): string | undefined {
  return errors.find((e) => fields.includes(e.field))?.message;
}

export function ExampleForm({ config, fields, draft, passage, errors, busy, online, onChange, onSubmit }: Props) {
  const labels = labelsOf(config);
  const labelError = errorFor(errors, "label");
  const answerError = errorFor(errors, "answer", "answerStart");
  const answerFound = passage !== null && draft.answer ? draft.answerStart !== null : true;
  const form = useRef<HTMLFormElement>(null);

  return (
    <form
      ref={form}
      class="card example-form"
      aria-labelledby="form-title"
      data-sandbox={draft.sandbox ? "on" : "off"}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
      onKeyDown={(event) => {
        // Ctrl+Enter (⌘+Enter on a Mac) submits from any field, a multi-line one included.
        if (event.key === "Enter" && (event.ctrlKey || event.metaKey) && !event.isComposing) {
          event.preventDefault();
          onSubmit();
        }
      }}
    >
      <h2 id="form-title" class="visually-hidden">{T.formTitle}</h2>
      <FormFields
        fields={fields}
        values={draft.fields}
        errors={fieldErrors(fields, errors)}
        contexts={draft.context?.fields ?? {}}
        contextTitles={contextTitles(config)}
        idPrefix={INPUT_PREFIX}
        onChange={(name, value) => onChange((d) => ({ ...d, fields: { ...d.fields, [name]: value } }))}
      />

      {labels.length > 0 && (
        <fieldset class="field labels" aria-describedby={labelError ? "label-error" : undefined}>
          <legend>{T.labelLegend}</legend>
          <div class="choice-row">
            {labels.map((label) => (
              <label class="choice" key={label}>
                <input
                  type="radio"
                  name="label"
                  value={label}
                  checked={draft.label === label}
                  onChange={() => onChange((d) => ({ ...d, label }))}
                />
                <span>{labelName(config, label)}</span>
              </label>
            ))}
          </div>
          {labelError && <p class="field-error" id="label-error">{labelError}</p>}
        </fieldset>
      )}

      {passage !== null && (
        <div class="field">
          <label for="input-answer">{T.answerLabel}</label>
          <input
            id="input-answer"
            name="answer"
            value={draft.answer ?? ""}
            dir="auto"
            aria-invalid={answerError || !answerFound ? "true" : undefined}
            aria-describedby={`passage-hint${answerError ? " answer-error" : ""}`}
            onInput={(event) => {
              const answer = (event.target as HTMLInputElement).value;
              const index = answer.trim() ? passage.indexOf(answer) : -1;
              onChange((d) => ({ ...d, answer, answerStart: index >= 0 ? index : null }));
            }}
          />
          <p class="hint" id="passage-hint">
            {T.answerHint}
            {!answerFound && <> {T.answerNotFound}</>}
          </p>
          {answerError && <p class="field-error" id="answer-error">{answerError}</p>}
        </div>
      )}

      <div class="field checkbox">
        <input
          id="input-sandbox"
          type="checkbox"
          checked={draft.sandbox}
          onChange={(event) => {
            const sandbox = (event.target as HTMLInputElement).checked;
            onChange((d) => ({ ...d, sandbox }));
          }}
        />
        <label for="input-sandbox">{T.sandboxLabel}</label>
      </div>

      <div class="actions submit-row">
        {/* Not `disabled` while busy: a disabled button drops the keyboard focus to <body>. */}
        <button type="submit" class="primary" aria-disabled={busy ? "true" : undefined} aria-describedby="submit-hint submit-shortcut">
          {busy ? T.asking : draft.sandbox ? T.trySandbox : T.submit}
        </button>
        <p class="hint" id="submit-hint">
          {draft.sandbox
            ? online ? T.sandboxHintOnline : T.sandboxHintOffline
            : online ? T.draftHintOnline : T.draftHintOffline}
        </p>
      </div>
      <p class="hint shortcut" id="submit-shortcut">{T.shortcut}</p>
    </form>
  );
}
