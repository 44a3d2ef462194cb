/**
 * Create a task from a form (or its "Advanced: JSON" editor), with a live preview of the annotation page, and open its
 * first round with a target model chosen from what the target Triton serves (servedTargetModels). Errors the server
 * names by field path are shown next to their control, and focus moves to the first one.
 */
import { useEffect, useMemo, useState } from "preact/hooks";
import { describeError, request } from "../../api/client";
import type { ErrorResult } from "../../api/types";
import { href } from "../../router";
import { loadTasks } from "../../tasks/store";
import { errorText, useFocusFirstInvalid } from "../status";
import { servedFor, servedKind } from "../targets";
import {
  buildConfig, clientProblems, controlFor, defaultState, jsonProblem, safeParse, stateFromConfig, type FormState, type Problem,
} from "./builder";
import { CREATE_TASK_FULL, OPEN_FIRST_ROUND, SERVED_TARGET_MODELS, type ServedModel } from "./documents";
import { described, Field, Preview, TargetPicker, type Errors } from "./parts";
import { ConfigJson, TaskFormFields } from "./TaskFormFields";
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
  const focusFirst = useFocusFirstInvalid("create-task-form", "create-task-status", [errors, message]);

  const config = useMemo(() => buildConfig(state), [state]);
  const problem = json === null ? null : jsonProblem(json);

  useEffect(() => {
    let live = true;
    setModelsLoading(true);
    request(SERVED_TARGET_MODELS, { kind: servedKind(state.kind), taskCode: null }).then(
      ({ servedTargetModels }) => {
        if (!live) return;
        const list = servedFor(servedTargetModels.targets, state.kind);
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
              <input dir="auto" type="text" {...described("ct-code", errors, true)} value={code} spellcheck={false} autocapitalize="off"
                disabled={created !== null} onInput={(e) => setCode(e.currentTarget.value)} />
            </Field>
            <Field id="ct-name" label={T.name} errors={errors}>
              <input dir="auto" type="text" {...described("ct-name", errors)} value={name} onInput={(e) => setName(e.currentTarget.value)} />
            </Field>
            <Field id="ct-description" label={T.description} errors={errors}>
              <textarea dir="auto" rows={2} {...described("ct-description", errors)} value={description}
                onInput={(e) => setDescription(e.currentTarget.value)} />
            </Field>
            <Field id="ct-instructions" label={T.instructions} errors={errors} hint={T.instructionsHint}>
              <textarea dir="auto" rows={4} {...described("ct-instructions", errors, true)} value={instructions}
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
              <TaskFormFields state={state} edit={setState} errors={errors} heading="h2" kindName="ct-kind" />
            ) : (
              <ConfigJson id="ct-json" label={T.jsonLabel} hint={T.jsonHint} value={json} errors={errors}
                syntaxError={problem && T.jsonError(problem.line, problem.column)}
                onInput={(text) => {
                  setJson(text);
                  setErrors(({ "ct-json": _, ...rest }) => rest);
                }} />
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
