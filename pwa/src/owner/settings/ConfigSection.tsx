/**
 * The task's config, edited in the task creation form (owner/create/TaskFormFields) over the stored config, or as JSON, with
 * a live preview of the annotation form; "Save as version N+1"; a refused change shows each error next to its
 * control (or the JSON editor) and focus moves to the first. Below: every version and the rounds using it.
 */
import { useMemo, useState } from "preact/hooks";
import { describeError, request } from "../../api/client";
import type { ErrorResult } from "../../api/types";
import { buildConfig, clientProblems, jsonProblem, safeParse, stateFromConfig, type FormState } from "../create/builder";
import { Preview, type Errors } from "../create/parts";
import { ConfigJson, TaskFormFields } from "../create/TaskFormFields";
import { errorText, useFocusFirstInvalid, type Message } from "../status";
import { UPDATE_TASK, type TaskSettings } from "./documents";
import { controlOf, formStateOf, mergeConfig, sameJson, versionRows } from "./settings";
import { SETTINGS_TEXT as T } from "./text";

type Json = Record<string, unknown>;

export function ConfigSection({ task, onSaved }: { task: TaskSettings; onSaved: (task: TaskSettings) => void }) {
  const [base, setBase] = useState<Json>(task.config); // the stored config the form is laid over
  const [state, setState] = useState<FormState | null>(() => formStateOf(task.config));
  const [json, setJson] = useState<string | null>(() => (formStateOf(task.config) ? null : JSON.stringify(task.config, null, 2)));
  const [errors, setErrors] = useState<Errors>({});
  const [message, setMessage] = useState<Message>(null);
  const [busy, setBusy] = useState(false);
  const [previewValues, setPreviewValues] = useState<Record<string, unknown>>({});
  const focusFirst = useFocusFirstInvalid("st-config", "st-config-status", [errors, message]);

  const document_ = useMemo(
    () => (json !== null ? safeParse(json) : state ? mergeConfig(base, buildConfig(state)) : base),
    [json, state, base],
  );
  const problem = json === null ? null : jsonProblem(json);
  const current = task.currentRound && task.currentRound.endAt === null ? task.currentRound : null;
  const rounds = task.rounds.edges.map((e) => e.node);

  function show(next: Errors, text: string) {
    focusFirst.current = true;
    setErrors(next);
    setMessage({ text, ok: false });
  }

  function refused(result: ErrorResult) {
    const fields = result.fields ?? [];
    if (result.__typename !== "InputError" || !fields.length) return show({}, errorText(result));
    const next: Errors = {};
    const unplaced: string[] = [];
    for (const f of fields) {
      const id = controlOf(f.field, json !== null);
      const text = id === "st-json" ? `${f.field.replace(/^config\.?/, "") || "config"}: ${f.message}` : f.message;
      if (id && document.getElementById(id)) next[id] = next[id] ? `${next[id]} ${text}` : text;
      else unplaced.push(`${f.field}: ${f.message}`);
    }
    show(next, [T.refused(fields.length), ...unplaced].join(" "));
  }

  async function save(event: Event) {
    event.preventDefault();
    if (busy) return;
    if (problem) return show({ "st-json": T.jsonError(problem.line, problem.column) }, T.fixErrors(1));
    if (json === null && state) {
      const local = clientProblems("code", "name", state);
      if (local.length) {
        const next: Errors = {};
        for (const p of local) {
          const id = controlOf(p.field, false);
          if (id) next[id] = next[id] ? `${next[id]} ${p.message}` : p.message;
        }
        return show(next, T.fixErrors(local.length));
      }
    }
    if (sameJson(document_, task.config)) {
      setErrors({});
      setMessage({ text: T.unchanged, ok: true });
      return;
    }
    setBusy(true);
    try {
      const { updateTask: result } = await request(UPDATE_TASK, { input: { taskCode: task.code, config: document_ } });
      if (result.__typename !== "TaskUpdated") return refused(result);
      const saved = result.task;
      onSaved(saved);
      setBase(saved.config);
      const loaded = formStateOf(saved.config);
      if (json === null && loaded) setState(loaded);
      else setJson(JSON.stringify(saved.config, null, 2));
      setErrors({});
      const open = saved.currentRound && saved.currentRound.endAt === null ? saved.currentRound : null;
      setMessage({
        text: open && open.configVersion !== saved.configVersion
          ? T.savedRoundKeeps(saved.configVersion, open.number, open.configVersion)
          : T.saved(saved.configVersion),
        ok: true,
      });
    } catch (problem_) {
      show({}, describeError(problem_));
    } finally {
      setBusy(false);
    }
  }

  function openJson() {
    setJson(JSON.stringify(document_, null, 2));
    setErrors({});
  }

  function backToForm() {
    if (json === null || problem) return;
    const parsed = JSON.parse(json) as Json;
    const next = formStateOf(parsed);
    if (!next) return show({ "st-json": T.jsonCannotShow }, T.fixErrors(1));
    setBase(parsed);
    setState(next);
    setJson(null);
    setErrors({});
  }

  const previewState = (json === null ? state : stateFromConfig(safeParse(json))) ?? state ?? stateFromConfig(task.config);

  return (
    <section class="card" aria-labelledby="st-config-title">
      <h2 id="st-config-title">{T.configTitle}</h2>
      <p>{T.configLead(task.configVersion)}</p>
      {current && current.configVersion !== task.configVersion && <p class="note">{T.roundKeeps(current.number, current.configVersion)}</p>}
      <form id="st-config" noValidate onSubmit={(e) => void save(e)}>
        {json === null && state ? (
          <TaskFormFields state={state} edit={(change) => setState((s) => (s ? change(s) : s))} errors={errors} heading="h3"
            kindName="st-kind" />
        ) : (
          <ConfigJson id="st-json" label={T.jsonLabel} hint={state === null && json !== null ? T.jsonOnly : T.jsonHint}
            value={json ?? ""} errors={errors} syntaxError={problem && T.jsonError(problem.line, problem.column)}
            onInput={(text) => {
              setJson(text);
              setErrors(({ "st-json": _, ...rest }) => rest);
            }} />
        )}
        <p>
          <button type="button" aria-expanded={json !== null} aria-controls="st-config" disabled={json !== null && problem !== null}
            onClick={() => (json === null ? openJson() : backToForm())}>
            {json === null ? T.editJson : T.backToForm}
          </button>
        </p>
        <button type="submit" class="primary" disabled={busy}>{busy ? T.saving : T.saveVersion(task.configVersion + 1)}</button>
        <p role="status" aria-live="polite" tabIndex={-1} id="st-config-status" data-testid="config-status"
          class={message ? (message.ok ? "notice-ok" : "error") : ""}>
          {message?.text}
        </p>
      </form>
      {previewState && (
        <Preview state={previewState} config={document_} values={previewValues}
          onChange={(n, v) => setPreviewValues((p) => ({ ...p, [n]: v }))} />
      )}
      <h3 id="st-versions-title">{T.versionsTitle}</h3>
      <div class="table-wrap" tabIndex={0} role="region" aria-labelledby="st-versions-title">
        <table data-testid="config-versions">
          <caption class="visually-hidden">{T.versionsCaption}</caption>
          <thead><tr><th scope="col">{T.colVersion}</th><th scope="col">{T.colDate}</th><th scope="col">{T.colRounds}</th></tr></thead>
          <tbody>
            {versionRows(task.configVersions, rounds, task.configVersion).map((v) => (
              <tr key={v.version} data-version={v.version}>
                <th scope="row">{v.version} {v.current && <span class="hint">{T.currentMark}</span>}</th>
                <td>{T.date(v.createdAt)}</td>
                <td>{v.rounds.length ? T.roundList(v.rounds) : T.noRounds}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
