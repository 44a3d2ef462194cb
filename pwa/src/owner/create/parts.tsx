/**
 * The task creation form's parts: a labelled control with its error next to it, the field-row editors, the target
 * model picker (served models with readiness) and the live preview of the annotation page (the forms registry).
 */
import type { ComponentChildren } from "preact";
import { FormFields, parseFieldSpecs } from "../../forms/FormFields";
import {
  CHOICE_TYPES, INPUT_TYPES, modelReadable, SHOW_WHEN, splitList, type FieldRow, type FormState, type InputType, type ShowWhen,
} from "./builder";
import type { ServedModel } from "./documents";
import { CREATE_TEXT as T } from "./text";

export type Errors = Record<string, string>;

/** aria attributes of a control with an error shown next to it (`${id}-error`) and an optional hint. */
export function described(id: string, errors: Errors, hint = false) {
  const ids = [hint ? `${id}-hint` : "", errors[id] ? `${id}-error` : ""].filter(Boolean).join(" ");
  return { id, "aria-invalid": errors[id] ? ("true" as const) : undefined, "aria-describedby": ids || undefined };
}

export function FieldError({ id, errors }: { id: string; errors: Errors }) {
  return errors[id] ? <p class="field-error" id={`${id}-error`}>{errors[id]}</p> : null;
}

export function Field({ id, label, errors, hint, children }: {
  id: string;
  label: string;
  errors: Errors;
  hint?: string;
  children: ComponentChildren;
}) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {children}
      {hint && <p class="hint" id={`${id}-hint`}>{hint}</p>}
      <FieldError id={id} errors={errors} />
    </div>
  );
}

export function FieldRows({ rows, input, errors, onChange, onRemove, contextNames = [], minimum = 1, modelChoice = true }: {
  rows: FieldRow[];
  input: boolean;
  contextNames?: string[];
  /** How many rows must stay (a generative task may have no input field). */
  minimum?: number;
  /** Whether the row can be sent to the model (not a generative task's input fields: its target reads context only). */
  modelChoice?: boolean;
  errors: Errors;
  onChange: (index: number, row: FieldRow) => void;
  onRemove: (index: number) => void;
}) {
  const word = input ? T.inputWord : T.contextWord;
  const prefix = input ? "input" : "context";
  return (
    <>
      {rows.map((row, i) => {
        const id = (part: string) => `ct-${prefix}-${i}-${part}`;
        const set = (patch: Partial<FieldRow>) => onChange(i, { ...row, ...patch });
        return (
          <fieldset class="field field-row" key={i} data-testid={id("row")}>
            <legend>{T.fieldLegend(word, i + 1)}</legend>
            <Field id={id("name")} label={T.fieldName} errors={errors}>
              <input dir="auto" type="text" {...described(id("name"), errors)} value={row.name} spellcheck={false}
                onInput={(e) => set({ name: e.currentTarget.value })} />
            </Field>
            <Field id={id("display")} label={T.fieldDisplay} errors={errors}>
              <input dir="auto" type="text" {...described(id("display"), errors)} value={row.displayName}
                onInput={(e) => set({ displayName: e.currentTarget.value })} />
            </Field>
            {input && (
              <Field id={id("type")} label={T.fieldType} errors={errors}>
                <select {...described(id("type"), errors)} value={row.type}
                  onChange={(e) => set({ type: e.currentTarget.value as InputType })}>
                  {INPUT_TYPES.map((t) => <option key={t} value={t}>{T.types[t]}</option>)}
                </select>
              </Field>
            )}
            {input && CHOICE_TYPES.includes(row.type) && (
              <Field id={id("choices")} label={T.fieldChoices} errors={errors}>
                <input dir="auto" type="text" {...described(id("choices"), errors)} value={row.choices}
                  onInput={(e) => set({ choices: e.currentTarget.value })} />
              </Field>
            )}
            {input && row.type === "number" && (
              <>
                <Field id={id("min")} label={T.fieldMin} errors={errors}>
                  <input type="number" {...described(id("min"), errors)} value={row.min} onInput={(e) => set({ min: e.currentTarget.value })} />
                </Field>
                <Field id={id("max")} label={T.fieldMaxValue} errors={errors}>
                  <input type="number" {...described(id("max"), errors)} value={row.max} onInput={(e) => set({ max: e.currentTarget.value })} />
                </Field>
                <Field id={id("step")} label={T.fieldStep} errors={errors}>
                  <input type="number" {...described(id("step"), errors)} value={row.step} onInput={(e) => set({ step: e.currentTarget.value })} />
                </Field>
                <div class="field checkbox">
                  <input type="checkbox" id={id("slider")} checked={row.slider} onChange={(e) => set({ slider: e.currentTarget.checked })} />
                  <label for={id("slider")}>{T.fieldSlider}</label>
                </div>
              </>
            )}
            {input && row.type === "rating" && (
              <Field id={id("scale")} label={T.fieldScale} errors={errors}>
                <input type="number" min={2} max={10} {...described(id("scale"), errors)} value={row.scale} placeholder="5"
                  onInput={(e) => set({ scale: e.currentTarget.value })} />
              </Field>
            )}
            {input && row.type === "span" && (
              <Field id={id("spanof")} label={T.fieldSpanOf} errors={errors}>
                <select {...described(id("spanof"), errors)} value={row.spanOf} onChange={(e) => set({ spanOf: e.currentTarget.value })}>
                  <option value="">—</option>
                  {contextNames.map((n) => <option key={n} value={n}>{n}</option>)}
                </select>
              </Field>
            )}
            {(!input || row.type === "text" || row.type === "multiline_text") && (
              <Field id={id("maxlength")} label={T.fieldMax} errors={errors}>
                <input type="number" min={1} max={100000} {...described(id("maxlength"), errors)} value={row.maxLength}
                  onInput={(e) => set({ maxLength: e.currentTarget.value })} />
              </Field>
            )}
            {input && (
              <Field id={id("when")} label={T.fieldWhen} errors={errors}>
                <select {...described(id("when"), errors)} value={row.showWhen}
                  onChange={(e) => set({ showWhen: e.currentTarget.value as ShowWhen })}>
                  {SHOW_WHEN.map((w) => <option key={w} value={w}>{T.showWhen[w]}</option>)}
                </select>
              </Field>
            )}
            {input && (
              <Field id={id("help")} label={T.fieldHelp} errors={errors}>
                <input dir="auto" type="text" {...described(id("help"), errors)} value={row.help}
                  onInput={(e) => set({ help: e.currentTarget.value })} />
              </Field>
            )}
            {!modelChoice ? null : modelReadable(row, input) ? (
              <div class="field checkbox">
                <input type="checkbox" {...described(id("model"), errors)} checked={row.toModel}
                  onChange={(e) => set({ toModel: e.currentTarget.checked })} />
                <label for={id("model")}>{T.fieldToModel}</label>
              </div>
            ) : <p class="hint" id={id("model")} tabIndex={-1}>{T.fieldNotToModel}</p>}
            <FieldError id={id("model")} errors={errors} />
            {rows.length > minimum && (
              <button type="button" onClick={() => onRemove(i)}>{T.removeField(word, i + 1)}</button>
            )}
          </fieldset>
        );
      })}
    </>
  );
}

export function describeModel(m: ServedModel): string {
  const parts = [m.versions[0] ? T.version(m.versions[0]) : "", m.ready ? T.ready : T.notReady,
    m.shared ? T.shared : "", T.heldout(m.heldoutAccuracy, m.heldoutF1)];
  return parts.filter(Boolean).join(" · ");
}

export function TargetPicker({ models, loading, failure, chosen, errors, onChoose, onUseLabels }: {
  models: ServedModel[];
  loading: boolean;
  failure: string;
  chosen: string;
  errors: Errors;
  onChoose: (name: string) => void;
  onUseLabels: (labels: string[]) => void;
}) {
  const picked = models.find((m) => m.name === chosen);
  const choosable = (m: ServedModel) => m.ready && m.usable;
  const firstChoosable = models.find(choosable)?.name ?? "";
  const invalid = errors["ct-target"] ? ("true" as const) : undefined;
  return (
    <fieldset class="field" aria-describedby={["ct-target-hint", errors["ct-target"] ? "ct-target-error" : ""].filter(Boolean).join(" ")}>
      <legend>{T.target}</legend>
      <p class="hint" id="ct-target-hint">{T.targetHint}</p>
      {loading && <p role="status">{T.targetsLoading}</p>}
      {failure && <p class="error">{T.targetsFailed(failure)}</p>}
      {!loading && !failure && models.length === 0 && <p class="hint" data-testid="no-served-models">{T.targetsNone}</p>}
      {!loading && !failure && !models.some(choosable) && <p class="note" data-testid="no-usable-models">{T.targetsNoneUsable}</p>}
      <ul class="choices target-list" data-testid="served-models">
        {models.map((m) => (
          <li key={m.name} data-testid={`served-${m.name}`} data-ready={m.ready ? "true" : "false"}>
            <label class="choice">
              <input type="radio" name="ct-target" id={m.name === firstChoosable ? "ct-target" : undefined} value={m.name}
                checked={chosen === m.name} disabled={!choosable(m)}
                aria-invalid={choosable(m) ? invalid : undefined} onChange={() => onChoose(m.name)} />
              <span><strong>{m.name}</strong> <span class="hint">{describeModel(m)}</span>
                {!choosable(m) && m.unusableReason && <span class="hint" dir="auto" data-testid="served-reason"> {m.unusableReason}</span>}</span>
            </label>
          </li>
        ))}
        <li>
          <label class="choice">
            <input type="radio" name="ct-target" id={firstChoosable ? undefined : "ct-target"} value=""
              checked={chosen === ""} aria-invalid={invalid} onChange={() => onChoose("")} />
            <span>{T.targetNone}</span>
          </label>
        </li>
      </ul>
      {picked && picked.inputs.length > 0 && <p class="hint">{T.modelReads(picked.inputs)}</p>}
      {picked && picked.labels.length > 0 && (
        <p class="hint">{T.modelLabels(picked.labels)}{" "}
          <button type="button" onClick={() => onUseLabels(picked.labels)}>{T.useModelLabels}</button></p>
      )}
      <FieldError id="ct-target" errors={errors} />
    </fieldset>
  );
}

/** The annotation page as annotators would see it: the contexts, then the form (the forms registry). */
export function Preview({ state, config, values, onChange }: {
  state: FormState;
  config: unknown;
  values: Record<string, unknown>;
  onChange: (name: string, value: unknown) => void;
}) {
  const contexts: Record<string, string> = {};
  for (const row of state.contextFields) contexts[row.name] = T.previewContext(row.displayName || row.name.replace(/_/g, " "));
  const labels = state.kind === "classification" ? splitList(state.labels) : [];
  const fields = [
    ...parseFieldSpecs(config),
    ...(labels.length ? parseFieldSpecs({ input_fields: [{ name: "label", display_name: T.previewLabel, type: "single_label", choices: labels }] }) : []),
  ];
  return (
    <section class="card" aria-labelledby="ct-preview-title" data-testid="task-preview">
      <h2 id="ct-preview-title">{T.preview}</h2>
      <div class="context">
        {state.contextFields.map((row) => (
          <div class="context-field" key={row.name}>
            <p class="field-title">{row.displayName || row.name.replace(/_/g, " ")}</p>
            <p class="context-text">{contexts[row.name]}</p>
          </div>
        ))}
      </div>
      <FormFields fields={fields.filter((f) => f.showWhen === "always")} values={values} onChange={onChange} contexts={contexts}
        idPrefix="ct-preview-" />
      {state.kind === "extractive_qa" && <p class="hint">{T.previewQa}</p>}
      {state.kind === "generative" && state.generative && (
        <>
          {state.generative.goal.trim() && <p class="goal" dir="auto" data-testid="preview-goal">{state.generative.goal}</p>}
          <p class="hint">
            {state.generative.mode === "prompt" ? T.previewPrompt : T.previewChat(Math.round(Number(state.generative.maxTurns) || 5))}
          </p>
        </>
      )}
      {fields.some((f) => f.showWhen !== "always") && (
        <>
          <h3>{T.previewAfter}</h3>
          <FormFields fields={fields.filter((f) => f.showWhen !== "always")} values={values} onChange={onChange}
            contexts={contexts} idPrefix="ct-preview-" />
        </>
      )}
    </section>
  );
}
