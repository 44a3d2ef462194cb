/**
 * Researchers: upload a Triton model repository (tar.gz or zip) for a task as a multipart GraphQL
 * request, list one's models, and follow one model's status and status log live (`modelUpdated`).
 */
import { useEffect, useState } from "preact/hooks";
import { describeError, request, requestUpload } from "../api/client";
import { MODEL_UPDATED, MY_MODELS, PUBLISH_MODEL, UPLOAD_MODEL } from "../api/documents";
import type { Model } from "../api/types";
import { subscribe } from "../api/ws";
import { reconnected } from "../lib/network";
import { useObservable } from "../lib/observable";
import type { PageProps } from "../routes";
import { href, navigate } from "../router";
import { loadTasks, tasksState } from "../tasks/store";

const STATUS_TEXT: Record<string, string> = {
  uploaded: "Uploaded",
  deploying: "Deploying",
  deployed: "Deployed",
  evaluating: "Evaluating",
  evaluated: "Evaluated",
  not_ranked: "Not ranked: no scoring dataset",
  failed: "Failed",
};

/** "In the loop for round N": the submission judges annotators' examples in an open round. */
export function InTheLoop({ rounds }: { rounds: number[] }) {
  if (!rounds.length) return null;
  return <span class="status-tag in-the-loop" data-testid="in-the-loop">In the loop for round {rounds.join(", ")}</span>;
}

// Publishable once evaluated; a not ranked model too (it is listed when its task gets a scoring dataset).
const PUBLISHABLE = new Set(["evaluated", "not_ranked"]);

export function StatusBadge({ status }: { status: string }) {
  return <span class={`status-tag model-status-${status}`} data-status={status}>{STATUS_TEXT[status] ?? status}</span>;
}

export function ModelsPage() {
  const tasks = useObservable(tasksState);
  const [models, setModels] = useState<Model[] | null>(null);
  const [listError, setListError] = useState<string | null>(null);
  const [taskCode, setTaskCode] = useState("");
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [license, setLicense] = useState("");
  const [anonymous, setAnonymous] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ text: string; ok: boolean } | null>(null);

  async function loadModels() {
    try {
      setModels((await request(MY_MODELS, { taskCode: null })).myModels);
      setListError(null);
    } catch (error) {
      setListError(describeError(error));
    }
  }

  useEffect(() => {
    if (!tasks.tasks) void loadTasks();
    void loadModels();
    return reconnected.on(() => void loadModels());
  }, []);

  useEffect(() => {
    if (!taskCode && tasks.tasks?.length) setTaskCode(tasks.tasks[0].code);
  }, [tasks.tasks]);

  async function upload(event: Event) {
    event.preventDefault();
    if (!file) {
      setMessage({ text: "Choose the archive of your model repository (tar.gz or zip).", ok: false });
      document.getElementById("model-archive")?.focus();
      return;
    }
    if (!name.trim()) {
      setMessage({ text: "Give the model a name.", ok: false });
      document.getElementById("model-name")?.focus();
      return;
    }
    setBusy(true);
    setMessage({ text: "Uploading…", ok: true });
    try {
      const card = description || license ? { description: description || null, license: license || null } : null;
      const { uploadModel: result } = await requestUpload(
        UPLOAD_MODEL,
        { taskCode, name: name.trim(), archive: null, card: card as Record<string, string> | null, anonymous },
        { archive: file },
      );
      if (result.__typename === "ModelUploaded") {
        navigate(`/models/${encodeURIComponent(result.model.id)}`);
        return;
      }
      setMessage({ text: result.message, ok: false });
    } catch (error) {
      setMessage({ text: describeError(error), ok: false });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title" tabIndex={-1}>Models</h1>
      <p class="lead">Upload a Triton model repository for a task. It is checked, deployed, smoke-tested and evaluated on the task’s scoring datasets; follow each step here.</p>
      <div class="columns">
        <div class="col-main">
          <section class="card" aria-labelledby="mine-title">
            <h2 id="mine-title">Your models</h2>
            {listError && <p class="error" role="alert">{listError}</p>}
            {models === null ? <p role="status">Loading…</p> : models.length === 0 ? <p class="hint">You have not uploaded a model yet.</p> : (
              <ul class="example-list" data-testid="my-models">
                {models.map((model) => (
                  <li class="card example-row" key={model.id} data-model={model.name}>
                    <div class="example-row-head">
                      <StatusBadge status={model.status} /> <InTheLoop rounds={model.inTheLoop ?? []} />
                      <a href={href(`/models/${encodeURIComponent(model.id)}`)}>{model.name}</a>
                      <span class="hint">{model.task.name}{model.published ? " · published" : ""}</span>
                    </div>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </div>
        <aside class="col-side" aria-label="Upload">
          <section class="card" aria-labelledby="upload-title">
            <h2 id="upload-title">Upload a model</h2>
            <form onSubmit={(e) => void upload(e)}>
              <div class="field">
                <label for="model-task">Task</label>
                <select id="model-task" value={taskCode} onChange={(e) => setTaskCode(e.currentTarget.value)}>
                  {tasks.tasks?.map((t) => <option key={t.code} value={t.code}>{t.name}</option>)}
                </select>
              </div>
              <div class="field">
                <label for="model-name">Name</label>
                <input id="model-name" type="text" maxLength={200} value={name} onInput={(e) => setName(e.currentTarget.value)} />
              </div>
              <div class="field">
                <label for="model-archive">Model repository archive</label>
                <input id="model-archive" type="file" accept=".tar.gz,.tgz,.zip,application/gzip,application/zip"
                  aria-describedby="model-archive-hint" onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)} />
                <p class="hint" id="model-archive-hint">A tar.gz or zip of one Triton model directory (config.pbtxt and a version folder).</p>
              </div>
              <div class="field">
                <label for="model-description">Description (model card)</label>
                <textarea id="model-description" rows={2} value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
              </div>
              <div class="field">
                <label for="model-license">License</label>
                <input id="model-license" type="text" value={license} onInput={(e) => setLicense(e.currentTarget.value)} />
              </div>
              <div class="field checkbox">
                <input id="model-anonymous" type="checkbox" checked={anonymous} onChange={(e) => setAnonymous(e.currentTarget.checked)} />
                <label for="model-anonymous">Anonymous on the leaderboard</label>
              </div>
              <button type="submit" class="primary" disabled={busy || !taskCode}>{busy ? "Uploading…" : "Upload"}</button>
              <p role="status" aria-live="polite" class={message && !message.ok ? "error" : "hint"} data-testid="upload-status">{message?.text}</p>
            </form>
          </section>
        </aside>
      </div>
    </section>
  );
}

export function ModelPage({ params }: PageProps) {
  const id = params.id;
  const [model, setModel] = useState<Model | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [generation, setGeneration] = useState(0);
  const [publishMessage, setPublishMessage] = useState<string | null>(null);

  // modelUpdated starts with the model as it is now, so subscribing again is a re-read.
  useEffect(
    () =>
      subscribe(MODEL_UPDATED, { modelId: id }, (data) => {
        setModel(data.modelUpdated);
        setError(null);
      }, setError),
    [id, generation],
  );
  useEffect(() => reconnected.on(() => setGeneration((g) => g + 1)), []);

  async function publish(published: boolean) {
    try {
      const { publishModel: result } = await request(PUBLISH_MODEL, { modelId: id, published });
      if (result.__typename === "ModelChanged") {
        setModel(result.model);
        setPublishMessage(published ? "Published: everyone sees it on the leaderboard." : "Unpublished.");
      } else setPublishMessage(result.message);
    } catch (problem) {
      setPublishMessage(describeError(problem));
    }
  }

  const log = model?.statusLog ?? [];
  return (
    <section aria-labelledby="page-title">
      <p class="crumbs"><a href={href("/models")}>Models</a> <span aria-hidden="true">›</span></p>
      <h1 id="page-title" tabIndex={-1}>{model ? model.name : "Model"}</h1>
      {error && <p class="error" role="alert">{error}</p>}
      {!model ? <p role="status">Loading…</p> : (
        <div class="columns">
          <div class="col-main">
            <section class="card" aria-labelledby="status-title">
              <h2 id="status-title">Status</h2>
              <p role="status" aria-live="polite" data-testid="model-status">
                <StatusBadge status={model.status} /> <InTheLoop rounds={model.inTheLoop ?? []} /> {model.task.name}
              </p>
              <h3>Status log</h3>
              {log.length === 0 ? <p class="hint">Nothing yet.</p> : (
                <ol class="status-log" data-testid="status-log">
                  {log.map((entry, i) => (
                    <li key={i} data-status={entry.status}>
                      <strong>{STATUS_TEXT[entry.status] ?? entry.status}</strong>{" "}
                      <time class="hint" dateTime={entry.at}>{new Date(entry.at).toLocaleString()}</time>
                      {entry.message && <div class="log-message">{entry.message}</div>}
                    </li>
                  ))}
                </ol>
              )}
            </section>
          </div>
          <aside class="col-side" aria-label="Publishing">
            <section class="card" aria-labelledby="publish-title">
              <h2 id="publish-title">Leaderboard</h2>
              <p class="hint">{model.published ? "Published: shown to everyone." : "Not published: only you see it on the leaderboard."}</p>
              <div class="actions">
                <button type="button" onClick={() => void publish(!model.published)} disabled={!PUBLISHABLE.has(model.status) && !model.published}>
                  {model.published ? "Unpublish" : "Publish"}
                </button>
                <a href={href(`/leaderboard/${encodeURIComponent(model.task.code)}`)}>Open the leaderboard</a>
              </div>
              <p role="status" aria-live="polite" class="hint">{publishMessage}</p>
            </section>
          </aside>
        </div>
      )}
    </section>
  );
}
