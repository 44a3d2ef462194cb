/**
 * Admins: the target models (share a built-in task's model with every task owner: TargetModelsSection.tsx), the LLM
 * endpoints of generative rounds and their usage (llm/LlmEndpointsSection.tsx), then every submission with its owner
 * and state; take one down with a reason its owner reads.
 */
import { useRef, useState } from "preact/hooks";
import { describeError, request } from "../api/client";
import type { PageProps } from "../routes";
import { AdminFrame, MoreButton, usePaged } from "./AdminFrame";
import { Confirm } from "./Confirm";
import { ADMIN_MODELS, type AdminModel, TAKE_DOWN_MODEL } from "./documents";
import { errorLine, replaceById, when } from "./logic";
import { LlmEndpointsSection } from "./llm/LlmEndpointsSection";
import { TargetModelsSection } from "./TargetModelsSection";
import { ADMIN_TEXT as T } from "./text";

export function AdminModelsPage(_props: PageProps) {
  const [taskCode, setTaskCode] = useState("");
  const [applied, setApplied] = useState<string | null>(null);
  const paged = usePaged((after) => request(ADMIN_MODELS, { taskCode: applied, after }).then((d) => d.adminModels), [applied]);
  const [open, setOpen] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<{ text: string; ok: boolean } | null>(null);
  const statusRef = useRef<HTMLDivElement>(null);
  const list = paged.items;

  async function takeDown(model: AdminModel, reason: string) {
    setBusy(true);
    try {
      const result = (await request(TAKE_DOWN_MODEL, { modelId: model.id, reason })).takeDownModel;
      if ("code" in result) {
        setStatus({ text: errorLine(result), ok: false });
      } else {
        const updated = { ...model, published: false, takenDown: true, takenDownReason: result.model.takenDownReason };
        paged.setItems(replaceById(list ?? [], updated));
        setOpen(null);
        setStatus({ text: T.takenDownDone(model.name), ok: true });
      }
    } catch (e) {
      setStatus({ text: describeError(e), ok: false });
    } finally {
      setBusy(false);
      requestAnimationFrame(() => statusRef.current?.focus());
    }
  }

  return (
    <AdminFrame tab="models" title={T.modelsTitle} forbidden={paged.forbidden}>
      <TargetModelsSection />
      <LlmEndpointsSection />
      <h2>{T.submissionsTitle}</h2>
      <form class="filters" role="search" onSubmit={(e) => { e.preventDefault(); setApplied(taskCode.trim() || null); }}>
        <div class="field">
          <label for="admin-task">{T.taskFilter}</label>
          <input dir="auto" id="admin-task" type="search" maxLength={64} value={taskCode} onInput={(e) => setTaskCode((e.target as HTMLInputElement).value)} />
        </div>
        <button type="submit">{T.filter}</button>
      </form>
      <div ref={statusRef} tabIndex={-1} role="status" aria-live="polite" class="alert-slot" data-testid="admin-status">
        {status && <p class={status.ok ? "notice-ok" : "error"}>{status.text}</p>}
      </div>
      {paged.error && <p role="alert" class="error">{paged.error}</p>}
      {list === null ? (!paged.error && <p role="status">{T.loading}</p>) : list.length === 0 ? <p>{T.noModels}</p> : (
        <>
          <ul class="example-list" aria-label={T.modelsTitle} data-testid="admin-models">
            {list.map((model) => (
              <li key={model.id} class="card" data-model={model.name}>
                <h3 class="card-title">
                  {model.name}{" "}
                  <span class={model.takenDown ? "badge badge-warn" : "badge"}>
                    {model.takenDown ? T.takenDown : model.published ? T.published : T.unpublished}
                  </span>
                </h3>
                <p class="hint">{T.modelLine(model.taskCode, model.owner, model.status)} · {when(model.createdAt)}</p>
                {model.takenDownReason && <p>{T.takenDownBecause(model.takenDownReason)}</p>}
                {!model.takenDown && (open === model.id ? (
                  <Confirm
                    id="confirm-take-down"
                    question={T.confirmTakeDown(model.name)}
                    reason={{ label: T.reasonLabel, required: true }}
                    busy={busy}
                    onConfirm={(reason) => void takeDown(model, reason)}
                    onCancel={() => setOpen(null)}
                  />
                ) : (
                  <div class="actions">
                    <button type="button" onClick={() => setOpen(model.id)}>{T.takeDown}</button>
                  </div>
                ))}
              </li>
            ))}
          </ul>
          <MoreButton paged={paged} />
        </>
      )}
    </AdminFrame>
  );
}
