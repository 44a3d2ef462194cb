/** The annotator's inputs: the task's input fields, the intended label (or the QA answer), sandbox, submit. */
import type { FieldError, TaskConfig } from "../api/types";
import { fieldLabel, humanize, labelsOf } from "../tasks/config";
import type { Draft } from "./drafts";

interface Props {
  config: TaskConfig;
  draft: Draft;
  passage: string | null; // QA only
  errors: FieldError[];
  busy: boolean;
  online: boolean;
  onChange: (change: (draft: Draft) => Draft) => void;
  onSubmit: () => void;
}

export const inputId = (name: string) => `input-${name}`;

export function errorFor(errors: FieldError[], ...fields: string[]): string | undefined {
  return errors.find((e) => fields.includes(e.field))?.message;
}

export function ExampleForm({ config, draft, passage, errors, busy, online, onChange, onSubmit }: Props) {
  const labels = labelsOf(config);
  const labelError = errorFor(errors, "label");
  const answerError = errorFor(errors, "answer", "answerStart");
  const answerFound = passage !== null && draft.answer ? draft.answerStart !== null : true;

  return (
    <form
      class="card example-form"
      aria-labelledby="form-title"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <h2 id="form-title">Your example</h2>
      {config.input_fields.map((spec) => {
        const id = inputId(spec.name);
        const error = errorFor(errors, `fields.${spec.name}`);
        const value = draft.fields[spec.name] ?? "";
        const max = spec.max_length ?? 2000;
        return (
          <div class="field" key={spec.name}>
            <label for={id}>{fieldLabel(spec)}</label>
            <textarea
              id={id}
              name={spec.name}
              rows={3}
              maxLength={max}
              placeholder={spec.placeholder || undefined}
              value={value}
              required
              aria-invalid={error ? "true" : undefined}
              aria-describedby={`${id}-count${error ? ` ${id}-error` : ""}`}
              onInput={(event) => {
                const text = (event.target as HTMLTextAreaElement).value;
                onChange((d) => ({ ...d, fields: { ...d.fields, [spec.name]: text } }));
              }}
            />
            <p class="hint counter" id={`${id}-count`}>{value.length} / {max} characters</p>
            {error && <p class="field-error" id={`${id}-error`}>{error}</p>}
          </div>
        );
      })}

      {labels.length > 0 && (
        <fieldset class="field labels" aria-describedby={labelError ? "label-error" : undefined}>
          <legend>The label you intend (the true one)</legend>
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
                <span>{humanize(label)}</span>
              </label>
            ))}
          </div>
          {labelError && <p class="field-error" id="label-error">{labelError}</p>}
        </fieldset>
      )}

      {passage !== null && (
        <div class="field">
          <label for="input-answer">Answer (select it in the passage, or type it exactly)</label>
          <input
            id="input-answer"
            name="answer"
            value={draft.answer ?? ""}
            aria-invalid={answerError || !answerFound ? "true" : undefined}
            aria-describedby={`passage-hint${answerError ? " answer-error" : ""}`}
            onInput={(event) => {
              const answer = (event.target as HTMLInputElement).value;
              const index = answer.trim() ? passage.indexOf(answer) : -1;
              onChange((d) => ({ ...d, answer, answerStart: index >= 0 ? index : null }));
            }}
          />
          <p class="hint" id="passage-hint">
            Select the answer span with the mouse or your finger in the passage; it is highlighted there.
            {!answerFound && " This text does not appear in the passage."}
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
        <label for="input-sandbox">Sandbox: ask the model without saving the example</label>
      </div>

      <div class="actions">
        <button type="submit" class="primary" disabled={busy} aria-describedby="submit-hint">
          {busy ? "Asking the model…" : draft.sandbox ? "Try in sandbox" : "Submit"}
        </button>
        <p class="hint" id="submit-hint">
          {draft.sandbox
            ? online ? "Nothing is saved in sandbox mode." : "Sandbox mode needs a connection."
            : online ? "Your draft is saved on this device as you type." : "Offline: submitted examples wait on this device and are sent when you reconnect."}
        </p>
      </div>
    </form>
  );
}
