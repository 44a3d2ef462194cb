/**
 * The task config form, shared by the task creation page and the task settings page: the kind of task, the context
 * and input field rows, the labels (or the context field holding the answer) and the judging settings. Its controls
 * keep the creation form's "ct-…" ids on both pages: the server's field paths map to them (builder's controlFor).
 * Also the config's JSON editor both pages open in its place, with its syntax error and the server's errors.
 */
import { FOOLING, fieldRow, METRICS, withKind, type FieldRow, type FormState, type Kind } from "./builder";
import { described, Field, FieldError, FieldRows, type Errors } from "./parts";
import { CREATE_TEXT as T } from "./text";

type RowKey = "contextFields" | "inputFields";

export function TaskFormFields({ state, edit, errors, heading: Heading, kindName }: {
  state: FormState;
  /** Applies a change to the form state (a state updater, so quick edits build on each other). */
  edit: (change: (s: FormState) => FormState) => void;
  errors: Errors;
  /** The section headings' level under the page's outline. */
  heading: "h2" | "h3";
  /** The kind radio group's name (its legend's id is `${kindName}-legend`). */
  kindName: string;
}) {
  const update = (patch: Partial<FormState>) => edit((s) => ({ ...s, ...patch }));
  const setRow = (key: RowKey) => (index: number, row: FieldRow) =>
    edit((s) => ({ ...s, [key]: s[key].map((r, i) => (i === index ? row : r)) }));
  const removeRow = (key: RowKey) => (index: number) => edit((s) => ({ ...s, [key]: s[key].filter((_, i) => i !== index) }));

  return (
    <>
      <fieldset class="field">
        <legend id={`${kindName}-legend`}>{T.kind}</legend>
        {(["classification", "extractive_qa"] as Kind[]).map((k, i) => (
          <label class="choice" key={k}>
            <input type="radio" name={kindName} id={i === 0 ? "ct-kind" : undefined} value={k} checked={state.kind === k}
              onChange={() => edit((s) => withKind(s, k))} />
            <span>{T.kinds[k]}</span>
          </label>
        ))}
        <FieldError id="ct-kind" errors={errors} />
      </fieldset>

      <Heading>{T.contextFields}</Heading>
      <FieldRows rows={state.contextFields} input={false} errors={errors} onChange={setRow("contextFields")}
        onRemove={removeRow("contextFields")} />
      <button type="button" onClick={() => update({ contextFields: [...state.contextFields, fieldRow(`context_${state.contextFields.length + 1}`, false)] })}>
        {T.addContext}
      </button>

      <Heading>{T.inputFields}</Heading>
      <FieldRows rows={state.inputFields} input={true} errors={errors} onChange={setRow("inputFields")}
        contextNames={state.contextFields.map((r) => r.name)} onRemove={removeRow("inputFields")} />
      <button type="button" onClick={() => update({ inputFields: [...state.inputFields, fieldRow(`field_${state.inputFields.length + 1}`, false)] })}>
        {T.addInput}
      </button>

      {state.kind === "classification" ? (
        <Field id="ct-labels" label={T.labels} errors={errors} hint={T.labelsHint}>
          <input dir="auto" type="text" {...described("ct-labels", errors, true)} value={state.labels} spellcheck={false}
            onInput={(e) => update({ labels: e.currentTarget.value })} />
        </Field>
      ) : (
        <Field id="ct-answer-field" label={T.answerField} errors={errors}>
          <select {...described("ct-answer-field", errors)} value={state.answerContextField}
            onChange={(e) => update({ answerContextField: e.currentTarget.value })}>
            {state.contextFields.map((r) => <option key={r.name} value={r.name}>{r.displayName || r.name}</option>)}
          </select>
        </Field>
      )}

      <Heading>{T.judging}</Heading>
      <Field id="ct-metric" label={T.metric} errors={errors}>
        <select {...described("ct-metric", errors)} value={state.performanceMetric}
          onChange={(e) => update({ performanceMetric: e.currentTarget.value })}>
          {METRICS[state.kind].map((m) => <option key={m} value={m}>{m}</option>)}
        </select>
      </Field>
      <Field id="ct-fooling" label={T.fooling} errors={errors}>
        <select {...described("ct-fooling", errors)} value={state.foolingMetric}
          onChange={(e) => update({ foolingMetric: e.currentTarget.value })}>
          {FOOLING[state.kind].map((m) => <option key={m} value={m}>{T.foolingNames[m] ?? m}</option>)}
        </select>
      </Field>
      {state.foolingMetric === "string_f1" && (
        <Field id="ct-threshold" label={T.threshold} errors={errors}>
          <input type="number" min={0.01} max={1} step={0.05} {...described("ct-threshold", errors)} value={state.threshold}
            onInput={(e) => update({ threshold: e.currentTarget.value })} />
        </Field>
      )}
      <Field id="ct-votes" label={T.votes} errors={errors}>
        <input type="number" min={1} max={25} step={1} {...described("ct-votes", errors)} value={state.votes}
          onInput={(e) => update({ votes: e.currentTarget.value })} />
      </Field>
      <div class="field checkbox">
        <input id="ct-leaderboard-private" type="checkbox" checked={state.leaderboardPrivate ?? false}
          aria-describedby="ct-leaderboard-private-hint" onChange={(e) => update({ leaderboardPrivate: e.currentTarget.checked })} />
        <label for="ct-leaderboard-private">{T.leaderboardPrivate}</label>
        <p class="hint" id="ct-leaderboard-private-hint">{T.leaderboardPrivateHint}</p>
      </div>
    </>
  );
}

export function ConfigJson({ id, label, hint, value, syntaxError, errors, onInput }: {
  id: string;
  label: string;
  hint: string;
  value: string;
  /** Where the text stops being JSON, said in words (null while it parses). */
  syntaxError: string | null;
  errors: Errors;
  onInput: (text: string) => void;
}) {
  const errorId = errors[id] ? `${id}-error` : syntaxError ? `${id}-syntax` : "";
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <p class="hint" id={`${id}-hint`}>{hint}</p>
      <textarea dir="auto" id={id} rows={18} class="mono" spellcheck={false} value={value}
        aria-invalid={errors[id] || syntaxError ? "true" : undefined}
        aria-describedby={[`${id}-hint`, errorId].filter(Boolean).join(" ")}
        onInput={(e) => onInput(e.currentTarget.value)} />
      {syntaxError && !errors[id] && <p class="field-error" id={`${id}-syntax`}>{syntaxError}</p>}
      <FieldError id={id} errors={errors} />
    </div>
  );
}
