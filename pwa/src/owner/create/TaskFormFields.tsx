/**
 * The task config form, shared by the task creation page and the task settings page: the kind of task, the context
 * and input field rows, the labels (or the context field holding the answer) and the judging settings. Its controls
 * keep the creation form's "ct-…" ids on both pages: the server's field paths map to them (builder's controlFor).
 * Also the config's JSON editor both pages open in its place, with its syntax error and the server's errors.
 */
import {
  chosenRating, defaultGenerative, FOOLING, fieldRow, KINDS, METRICS, ratingChoices, withKind, type FieldRow, type FormState,
  type GenerativeState,
} from "./builder";
import { formatNumber } from "../../i18n/format";
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
  const generative = state.kind === "generative";
  const g = state.generative ?? defaultGenerative();
  const setGen = (patch: Partial<GenerativeState>) =>
    edit((s) => ({ ...s, generative: { ...(s.generative ?? defaultGenerative()), ...patch } }));

  return (
    <>
      <fieldset class="field">
        <legend id={`${kindName}-legend`}>{T.kind}</legend>
        {KINDS.map((k, i) => (
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

      <Heading>{generative ? T.inputFieldsGenerative : T.inputFields}</Heading>
      <FieldRows rows={state.inputFields} input={true} errors={errors} onChange={setRow("inputFields")}
        contextNames={state.contextFields.map((r) => r.name)} onRemove={removeRow("inputFields")}
        minimum={generative ? 0 : 1} modelChoice={!generative} />
      <button type="button" onClick={() => update({ inputFields: [...state.inputFields, fieldRow(`field_${state.inputFields.length + 1}`, false)] })}>
        {T.addInput}
      </button>

      {generative ? (
        <GenerativeFields g={g} set={setGen} errors={errors} Heading={Heading} />
      ) : state.kind === "classification" ? (
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
      {generative && state.foolingMetric === "judge_model" && (
        <>
          <Field id="ct-gen-judge-model" label={T.judgeModel} errors={errors}>
            <input type="text" {...described("ct-gen-judge-model", errors)} value={g.judgeModel} spellcheck={false} autocapitalize="off"
              onInput={(e) => setGen({ judgeModel: e.currentTarget.value })} />
          </Field>
          <Field id="ct-gen-judge-label" label={T.judgeLabel} errors={errors}>
            <input type="text" {...described("ct-gen-judge-label", errors)} value={g.judgeLabel} spellcheck={false} autocapitalize="off"
              onInput={(e) => setGen({ judgeLabel: e.currentTarget.value })} />
          </Field>
          <Field id="ct-gen-judge-threshold" label={T.judgeThreshold} errors={errors} hint={T.judgeHint}>
            <input type="number" min={0.01} max={1} step={0.05} {...described("ct-gen-judge-threshold", errors, true)} value={g.judgeThreshold}
              onInput={(e) => setGen({ judgeThreshold: e.currentTarget.value })} />
          </Field>
        </>
      )}
      {generative && state.foolingMetric === "validator_rating" && <RatingRule state={state} g={g} set={setGen} errors={errors} />}
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
      <div class="field checkbox">
        <input id="ct-remove-work" type="checkbox" checked={state.removeWorkOnDeletion ?? false}
          aria-describedby="ct-remove-work-hint" onChange={(e) => update({ removeWorkOnDeletion: e.currentTarget.checked })} />
        <label for="ct-remove-work">{T.removeWork}</label>
        <p class="hint" id="ct-remove-work-hint">{T.removeWorkHint}</p>
      </div>
    </>
  );
}

/** fooling validator_rating: the validator field every vote rates in (or a new 1–5 rating the form adds) and the
 * threshold from which a vote says the model failed (config `generative.rating`). */
function RatingRule({ state, g, set, errors }: {
  state: FormState;
  g: GenerativeState;
  set: (patch: Partial<GenerativeState>) => void;
  errors: Errors;
}) {
  const choices = ratingChoices(state);
  const chosen = chosenRating(state);
  const range = chosen && chosen.low !== null && chosen.high !== null
    ? T.ratingThresholdRangeHint(formatNumber(chosen.low), formatNumber(chosen.high))
    : T.ratingThresholdHint;
  return (
    <>
      <Field id="ct-gen-rating-field" label={T.ratingField} errors={errors} hint={T.ratingFieldHint}>
        <select {...described("ct-gen-rating-field", errors, true)} value={chosen?.name ?? ""}
          onChange={(e) => set({ ratingField: e.currentTarget.value })}>
          {choices.map((c) => <option key={c.name} value={c.name}>{c.label}</option>)}
        </select>
      </Field>
      <Field id="ct-gen-rating-threshold" label={T.ratingThreshold} errors={errors} hint={range}>
        <input type="number" step="any" min={chosen?.low ?? undefined} max={chosen?.high ?? undefined}
          {...described("ct-gen-rating-threshold", errors, true)} value={g.ratingThreshold}
          onInput={(e) => set({ ratingThreshold: e.currentTarget.value })} />
      </Field>
    </>
  );
}

/** A generative task's conversation settings: mode and turn limit, system prompt, goal, categories, reply length and
 * temperature (the judge's settings sit under Judging). */
function GenerativeFields({ g, set, errors, Heading }: {
  g: GenerativeState;
  set: (patch: Partial<GenerativeState>) => void;
  errors: Errors;
  Heading: "h2" | "h3";
}) {
  return (
    <>
      <Heading>{T.generativeTitle}</Heading>
      <Field id="ct-gen-goal" label={T.genGoal} errors={errors} hint={T.genGoalHint}>
        <textarea dir="auto" rows={2} {...described("ct-gen-goal", errors, true)} value={g.goal}
          onInput={(e) => set({ goal: e.currentTarget.value })} />
      </Field>
      <Field id="ct-gen-mode" label={T.genMode} errors={errors}>
        <select {...described("ct-gen-mode", errors)} value={g.mode}
          onChange={(e) => set({ mode: e.currentTarget.value === "prompt" ? "prompt" : "chat" })}>
          {(["chat", "prompt"] as const).map((m) => <option key={m} value={m}>{T.genModes[m]}</option>)}
        </select>
      </Field>
      {g.mode === "chat" && (
        <Field id="ct-gen-turns" label={T.genTurns} errors={errors}>
          <input type="number" min={1} max={50} step={1} {...described("ct-gen-turns", errors)} value={g.maxTurns}
            onInput={(e) => set({ maxTurns: e.currentTarget.value })} />
        </Field>
      )}
      <Field id="ct-gen-system" label={T.genSystem} errors={errors} hint={T.genSystemHint}>
        <textarea dir="auto" rows={3} {...described("ct-gen-system", errors, true)} value={g.systemPrompt}
          onInput={(e) => set({ systemPrompt: e.currentTarget.value })} />
      </Field>
      <Field id="ct-gen-categories" label={T.genCategories} errors={errors} hint={T.genCategoriesHint}>
        <input type="text" {...described("ct-gen-categories", errors, true)} value={g.categories} spellcheck={false} autocapitalize="off"
          onInput={(e) => set({ categories: e.currentTarget.value })} />
      </Field>
      <Field id="ct-gen-max-tokens" label={T.genMaxTokens} errors={errors}>
        <input type="number" min={1} max={1024} step={1} {...described("ct-gen-max-tokens", errors)} value={g.maxTokens}
          onInput={(e) => set({ maxTokens: e.currentTarget.value })} />
      </Field>
      <Field id="ct-gen-temperature" label={T.genTemperature} errors={errors}>
        <input type="number" min={0} max={2} step={0.1} {...described("ct-gen-temperature", errors)} value={g.temperature}
          onInput={(e) => set({ temperature: e.currentTarget.value })} />
      </Field>
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
