/**
 * Researchers: upload a Triton model repository (tar.gz or zip) for a task as a multipart GraphQL request, with
 * upload progress and Cancel, and list one's models. One model's page: ModelPage.tsx.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { CancelledError, describeError, request, requestUpload } from "../api/client";
import { MY_MODELS, UPLOAD_MODEL } from "../api/documents";
import type { Model } from "../api/types";
import { reconnected } from "../lib/network";
import { useObservable } from "../lib/observable";
import { href, navigate } from "../router";
import { loadTasks, tasksState } from "../tasks/store";
import { InTheLoop, StatusBadge } from "./badges";
import { ContractPanel } from "./ContractPanel";
import { sentAll, type Progress } from "./progress";
import { MODELS_TEXT as T } from "./text";
import { UploadProgress } from "./UploadProgress";
import "./models.css";

const UPLOAD_TIMEOUT_MS = 60 * 60_000; // a large archive on a slow link; Cancel is always at hand

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
  const [progress, setProgress] = useState<Progress | null>(null);
  const [message, setMessage] = useState<{ text: string; ok: boolean } | null>(null);
  const uploading = useRef<AbortController | null>(null);
  const submitButton = useRef<HTMLButtonElement>(null);
  const focusSubmit = useRef(false);

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
    const off = reconnected.on(() => void loadModels());
    return () => {
      off();
      uploading.current?.abort(); // leaving the page stops an upload in flight
    };
  }, []);

  useEffect(() => {
    if (!taskCode && tasks.tasks?.length) setTaskCode(tasks.tasks[0].code);
  }, [tasks.tasks]);

  // After a cancel the Cancel button is gone: focus goes back to Upload once it is enabled again.
  useEffect(() => {
    if (!busy && focusSubmit.current) submitButton.current?.focus();
    focusSubmit.current = false;
  }, [busy]);

  function onProgress(sent: number, total: number) {
    setProgress({ sent, total });
    if (sentAll({ sent, total })) setMessage({ text: T.checking, ok: true });
  }

  async function upload(event: Event) {
    event.preventDefault();
    if (!file) {
      setMessage({ text: T.chooseArchive, ok: false });
      document.getElementById("model-archive")?.focus();
      return;
    }
    if (!name.trim()) {
      setMessage({ text: T.giveName, ok: false });
      document.getElementById("model-name")?.focus();
      return;
    }
    const controller = new AbortController();
    uploading.current = controller;
    setBusy(true);
    setProgress({ sent: 0, total: file.size });
    setMessage({ text: T.uploading, ok: true });
    try {
      const card = description || license ? { description: description || null, license: license || null } : null;
      const { uploadModel: result } = await requestUpload(
        UPLOAD_MODEL,
        { taskCode, name: name.trim(), archive: null, card: card as Record<string, string> | null, anonymous },
        { archive: file },
        { signal: controller.signal, timeoutMs: UPLOAD_TIMEOUT_MS, onProgress },
      );
      if (result.__typename === "ModelUploaded") {
        navigate(`/models/${encodeURIComponent(result.model.id)}`);
        return;
      }
      setMessage({ text: result.message, ok: false });
    } catch (error) {
      if (error instanceof CancelledError) {
        setMessage({ text: T.cancelled, ok: true });
        focusSubmit.current = true;
      } else setMessage({ text: describeError(error), ok: false });
    } finally {
      uploading.current = null;
      setBusy(false);
      setProgress(null);
    }
  }

  return (
    <section aria-labelledby="page-title" class="models-page">
      <h1 id="page-title" tabIndex={-1}>{T.title}</h1>
      <p class="lead">{T.lead}</p>
      <div class="columns">
        <div class="col-main">
          <section class="card" aria-labelledby="mine-title">
            <h2 id="mine-title">{T.mineTitle}</h2>
            {listError && <p class="error" role="alert">{listError}</p>}
            {models === null ? <p role="status">{T.loading}</p> : models.length === 0 ? <p class="hint">{T.noModels}</p> : (
              <ul class="example-list" data-testid="my-models">
                {models.map((model) => (
                  <li class="card example-row" key={model.id} data-model={model.name}>
                    <div class="example-row-head">
                      <StatusBadge status={model.status} /> <InTheLoop rounds={model.inTheLoop ?? []} />
                      <a class="model-link" href={href(`/models/${encodeURIComponent(model.id)}`)}>{model.name}</a>
                      <span class="hint">{T.listMeta(model.task?.name ?? "", model.published)}</span>
                    </div>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </div>
        <aside class="col-side" aria-label={T.uploadRegion}>
          <section class="card" aria-labelledby="upload-title">
            <h2 id="upload-title">{T.uploadTitle}</h2>
            <form onSubmit={(e) => void upload(e)}>
              <div class="field">
                <label for="model-task">{T.task}</label>
                <select id="model-task" value={taskCode} disabled={busy} onChange={(e) => setTaskCode(e.currentTarget.value)}>
                  {tasks.tasks?.map((t) => <option key={t.code} value={t.code}>{t.name}</option>)}
                </select>
              </div>
              {taskCode && <ContractPanel taskCode={taskCode} />}
              <div class="field">
                <label for="model-name">{T.name}</label>
                <input id="model-name" type="text" maxLength={200} value={name} onInput={(e) => setName(e.currentTarget.value)} />
              </div>
              <div class="field">
                <label for="model-archive">{T.archive}</label>
                <input id="model-archive" type="file" accept=".tar.gz,.tgz,.zip,application/gzip,application/zip"
                  aria-describedby="model-archive-hint" onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)} />
                <p class="hint" id="model-archive-hint">{T.archiveHint}</p>
              </div>
              <div class="field">
                <label for="model-description">{T.description}</label>
                <textarea id="model-description" rows={2} value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
              </div>
              <div class="field">
                <label for="model-license">{T.license}</label>
                <input id="model-license" type="text" value={license} onInput={(e) => setLicense(e.currentTarget.value)} />
              </div>
              <div class="field checkbox">
                <input id="model-anonymous" type="checkbox" checked={anonymous} onChange={(e) => setAnonymous(e.currentTarget.checked)} />
                <label for="model-anonymous">{T.anonymous}</label>
              </div>
              <button type="submit" class="primary" ref={submitButton} disabled={busy || !taskCode}>{busy ? T.uploading : T.upload}</button>
              {progress && <UploadProgress progress={progress} onCancel={() => uploading.current?.abort()} />}
              <p role="status" aria-live="polite" class={message && !message.ok ? "error" : "hint"} data-testid="upload-status">{message?.text}</p>
            </form>
          </section>
        </aside>
      </div>
    </section>
  );
}
