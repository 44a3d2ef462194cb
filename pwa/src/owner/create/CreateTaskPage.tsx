/**
 * Create a task from a form (or its "Advanced: JSON" editor), with a live preview of the annotation page, and open its
 * first round with a target model chosen from what the target Triton serves (servedTargetModels). Errors the server
 * names by field path are shown next to their control, and focus moves to the first one.
 */
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { describeError, request } from "../../api/client";
import type { ErrorResult } from "../../api/types";
import { href } from "../../router";
import { loadTasks } from "../../tasks/store";
import { errorText } from "../status";
import {
  buildConfig, clientProblems, controlFor, defaultState, fieldRow, FOOLING, jsonProblem, METRICS, stateFromConfig, withKind,
  type FieldRow, type FormState, type Kind, type Problem,
} from "./builder";
import { CREATE_TASK_FULL, OPEN_FIRST_ROUND, SERVED_TARGET_MODELS, type ServedModel } from "./documents";
import { described, Field, FieldError, FieldRows, Preview, TargetPicker, type Errors } from "./parts";
import { CREATE_TEXT as T } from "./text";

type Created = { code: string; name: string; proposal: boolean };

export function CreateTaskPage() {
  const [code, setCode] = useState("");
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [instructions, setInstructions] = useState("");
  const [showInstructions, setShowInstructions] = useState(false);
  const [state, setState] = useState<FormState>(() => defaultState());
  const [json, setJson] = useState<string | null>(null); // the JSON editor's text while it is open
  const [models, setModels] = useState<ServedModel[]>([]);
  const [modelsLoading, setModelsLoading] = useState(true);
  const [modelsFailure, setModelsFailure] = useState("");
  const [target, setTarget] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  const [message, setMessage] = useState<{ text: string; ok: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<Created | null>(null);
  const [roundOpen, setRoundOpen] = useState(false);
  const [previewValues, setPreviewValues] = useState<Record<string, unknown>>({});
  const focusFirst = useRef(false);

  const config = useMemo(() => buildConfig(state), [state]);
  const problem = json === null ? null : jsonProblem(json);

  useEffect(() => {
    let live = true;
    setModelsLoading(true);
    request(SERVED_TARGET_MODELS, { kind: state.kind }).then(
      ({ servedTargetModels }) => {
        if (!live) return;
        const list = servedTargetModels.targets;
        setModels(list);
        setModelsFailure("");
        setModelsLoading(false);
        setTarget((current) => {
          const still = list.find((m) => m.name === current && m.ready && m.usable);
          return still ? still.name : list.find((m) => m.ready && m.usable)?.name ?? "";
        });
      },
      (error) => {
        if (!live) return;
        setModels([]);
        setModelsFailure(describeError(error));
        setModelsLoading(false);
      },
    );
    return () => {
      live = false;
    };
  }, [state.kind]);

  useEffect(() => {
    if (!focusFirst.current) return;
    focusFirst.current = false;
    const first = document.querySelector<HTMLElement>("#create-task-form [aria-invalid='true']");
    (first ?? document.getElementById("create-task-status"))?.focus();
  }, [errors, message]);

  function update(patch: Partial<FormState>) {
    setState((s) => ({ ...s, ...patch }));
  }

  function showProblems(problems: Problem[], summary: string) {
    const next: Errors = {};
    const unplaced: string[] = [];
    for (const p of problems) {
      const inJson = json !== null && p.field.startsWith("config");
      const id = inJson ? "ct-json" : controlFor(p.field);
      const text = inJson ? `${p.field.replace(/^config\.?/, "") || "config"}: ${p.message}` : p.message;
      if (id && document.getElementById(id)) next[id] = next[id] ? `${next[id]} ${text}` : text;
      else unplaced.push(`${p.field}: ${p.message}`);
    }
    focusFirst.current = true;
    setErrors(next);
    setMessage({ text: [summary, ...unplaced].join(" "), ok: false });
  }

  function showResult(result: ErrorResult, prefix = "") {
    if (result.__typename === "InputError" && result.fields?.length) {
      showProblems(result.fields, prefix + T.fixErrors(result.fields.length));
    } else if (result.__typename === "ConflictError" && document.getElementById("ct-code")) {
      showProblems([{ field: "code", message: result.message }], prefix + T.fixErrors(1));
    } else {
      focusFirst.current = true;
      setErrors({});
      setMessage({ text: prefix + errorText(result), ok: false });
    }
  }

  async function openRound(task: Created) {
    const model = models.find((m) => m.name === target);
    if (!model) {
      setMessage({ text: T.created(task.name, task.proposal) + T.noRound, ok: true });
      return;
    }
    const { createRound: result } = await request(OPEN_FIRST_ROUND, {
      input: { taskCode: task.code, targetModels: [{ name: model.name, version: model.versions[0] ?? "" }] },
    });
    if (result.__typename === "RoundCreated") {
      setRoundOpen(true);
      setErrors({});
      setMessage({ text: T.created(task.name, task.proposal) + T.roundOpened(result.round.number), ok: true });
    } else {
      showResult(result, T.created(task.name, task.proposal) + T.roundFailed(""));
    }
  }

  async function submit(event: Event) {
    event.preventDefault();
    if (busy) return;
    let document_: unknown = config;
    if (json !== null) {
      if (problem) {
        focusFirst.current = true;
        setErrors({ "ct-json": T.jsonError(problem.line, problem.column) });
        setMessage({ text: T.fixErrors(1), ok: false });
        return;
      }
      document_ = JSON.parse(json);
    }
    const local = clientProblems(code, name, json === null ? state : null);
    if (local.length) {
      showProblems(local, T.fixErrors(local.length));
      return;
    }
    setBusy(true);
    try {
      const { createTask: result } = await request(CREATE_TASK_FULL, {
        input: { code: code.trim(), name: name.trim(), config: document_, description, instructions },
      });
      if (result.__typename !== "TaskCreated") {
        showResult(result);
        return;
      }
      const task = { code: result.task.code, name: result.task.name, proposal: result.task.status === "PROPOSED" };
      setCreated(task);
      void loadTasks();
      await openRound(task);
    } catch (error) {
      setMessage({ text: describeError(error), ok: false });
    } finally {
      setBusy(false);
    }
  }

  async function retryRound() {
    if (!created || busy) return;
    setBusy(true);
    try {
      await openRound(created);
    } catch (error) {
      setMessage({ text: describeError(error), ok: false });
    } finally {
      setBusy(false);
    }
  }

  function openJson() {
    setJson(JSON.stringify(config, null, 2));
    setErrors({});
  }

  function backToForm() {
    if (json === null || problem) return;
    const next = stateFromConfig(JSON.parse(json));
    if (!next) {
      setErrors({ "ct-json": T.jsonCannotShow });
      return;
    }
    setState(next);
    setJson(null);
    setErrors({});
  }

  const setRow = (key: "contextFields" | "inputFields") => (index: number, row: FieldRow) =>
    setState((s) => ({ ...s, [key]: s[key].map((r, i) => (i === index ? row : r)) }));
  const removeRow = (key: "contextFields" | "inputFields") => (index: number) =>
    setState((s) => ({ ...s, [key]: s[key].filter((_, i) => i !== index) }));
  const jsonErrorId = errors["ct-json"] ? "ct-json-error" : problem ? "ct-json-syntax" : "";

  return (
    <div>
      <header class="page-head">
        <p class="crumbs"><a href={href("/owner")}>{T.crumb}</a> <span aria-hidden="true">›</span></p>
        <h1 id="page-title" tabIndex={-1}>{T.title}</h1>
        <p class="lead">{T.lead}</p>
      </header>
      <div class="columns">
        <div class="col-main">
          <form id="create-task-form" class="card" noValidate onSubmit={(e) => void submit(e)}>
            <h2>{T.basics}</h2>
            <Field id="ct-code" label={T.code} errors={errors} hint={T.codeHint}>
              <input type="text" {...described("ct-code", errors, true)} value={code} spellcheck={false} autocapitalize="off"
                disabled={created !== null} onInput={(e) => setCode(e.currentTarget.value)} />
            </Field>
            <Field id="ct-name" label={T.name} errors={errors}>
              <input type="text" {...described("ct-name", errors)} value={name} onInput={(e) => setName(e.currentTarget.value)} />
            </Field>
            <Field id="ct-description" label={T.description} errors={errors}>
              <textarea rows={2} {...described("ct-description", errors)} value={description}
                onInput={(e) => setDescription(e.currentTarget.value)} />
            </Field>
            <Field id="ct-instructions" label={T.instructions} errors={errors} hint={T.instructionsHint}>
              <textarea rows={4} {...described("ct-instructions", errors, true)} value={instructions}
                onInput={(e) => setInstructions(e.currentTarget.value)} />
            </Field>
            <button type="button" aria-expanded={showInstructions} aria-controls="ct-instructions-preview"
              onClick={() => setShowInstructions(!showInstructions)}>
              {showInstructions ? T.hideInstructions : T.showInstructions}
            </button>
            <div id="ct-instructions-preview" class="note" hidden={!showInstructions}>
              {instructions.trim()
                ? instructions.split(/\n\s*\n/).map((para, i) => <p key={i} style={{ whiteSpace: "pre-wrap" }}>{para}</p>)
                : <p class="hint">{T.instructionsEmpty}</p>}
            </div>

            {json === null ? (
              <>
                <fieldset class="field">
                  <legend id="ct-kind-legend">{T.kind}</legend>
                  {(["classification", "extractive_qa"] as Kind[]).map((k, i) => (
                    <label class="choice" key={k}>
                      <input type="radio" name="ct-kind" id={i === 0 ? "ct-kind" : undefined} value={k} checked={state.kind === k}
                        onChange={() => setState((s) => withKind(s, k))} />
                      <span>{T.kinds[k]}</span>
                    </label>
                  ))}
                  <FieldError id="ct-kind" errors={errors} />
                </fieldset>

                <h2>{T.contextFields}</h2>
                <FieldRows rows={state.contextFields} input={false} errors={errors} onChange={setRow("contextFields")}
                  onRemove={removeRow("contextFields")} />
                <button type="button" onClick={() => update({ contextFields: [...state.contextFields, fieldRow(`context_${state.contextFields.length + 1}`, false)] })}>
                  {T.addContext}
                </button>

                <h2>{T.inputFields}</h2>
                <FieldRows rows={state.inputFields} input={true} errors={errors} onChange={setRow("inputFields")}
                  contextNames={state.contextFields.map((r) => r.name)}
                  onRemove={removeRow("inputFields")} />
                <button type="button" onClick={() => update({ inputFields: [...state.inputFields, fieldRow(`field_${state.inputFields.length + 1}`, false)] })}>
                  {T.addInput}
                </button>

                {state.kind === "classification" ? (
                  <Field id="ct-labels" label={T.labels} errors={errors} hint={T.labelsHint}>
                    <input type="text" {...described("ct-labels", errors, true)} value={state.labels} spellcheck={false}
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

                <h2>{T.judging}</h2>
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
              </>
            ) : (
              <div class="field">
                <label for="ct-json">{T.jsonLabel}</label>
                <p class="hint" id="ct-json-hint">{T.jsonHint}</p>
                <textarea id="ct-json" rows={18} class="mono" spellcheck={false} value={json}
                  aria-invalid={errors["ct-json"] || problem ? "true" : undefined}
                  aria-describedby={["ct-json-hint", jsonErrorId].filter(Boolean).join(" ")}
                  onInput={(e) => {
                    setJson(e.currentTarget.value);
                    setErrors(({ "ct-json": _, ...rest }) => rest);
                  }} />
                {problem && !errors["ct-json"] && <p class="field-error" id="ct-json-syntax">{T.jsonError(problem.line, problem.column)}</p>}
                <FieldError id="ct-json" errors={errors} />
              </div>
            )}
            <button type="button" aria-expanded={json !== null} onClick={() => (json === null ? openJson() : backToForm())}
              disabled={json !== null && problem !== null}>
              {json === null ? T.advanced : T.jsonBack}
            </button>

            <TargetPicker models={models} loading={modelsLoading} failure={modelsFailure} chosen={target} errors={errors}
              onChoose={setTarget} onUseLabels={(labels) => update({ labels: labels.join(", ") })} />

            {created === null ? (
              <button type="submit" class="primary" disabled={busy}>{busy ? T.creating : T.create}</button>
            ) : (
              <p>
                {!roundOpen && target && (
                  <button type="button" class="primary" disabled={busy} onClick={() => void retryRound()}>{T.retryRound}</button>
                )}{" "}
                <a href={href(`/owner/${encodeURIComponent(created.code)}`)}>{T.toTask(created.name)}</a>
              </p>
            )}
            <p role="status" aria-live="polite" tabIndex={-1} id="create-task-status" data-testid="create-task-status"
              class={message ? (message.ok ? "notice-ok" : "error") : ""}>
              {message?.text}
            </p>
          </form>
        </div>
        <aside class="col-side" aria-label={T.preview}>
          <Preview state={json === null ? state : stateFromConfig(safeParse(json)) ?? state} config={json === null ? config : safeParse(json)}
            values={previewValues} onChange={(n, v) => setPreviewValues((p) => ({ ...p, [n]: v }))} />
        </aside>
      </div>
    </div>
  );
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
