/**
 * Admins: the target Triton's models with the built-in task each belongs to; share one with every task owner (or stop)
 * after a confirmation. The list follows the mutation's answer.
 */
import { useRef, useState } from "preact/hooks";
import { describeError, request } from "../api/client";
import { useAdminLoad } from "./AdminFrame";
import { Confirm } from "./Confirm";
import { ADMIN_TARGET_MODELS, type AdminTargetModel, SHARE_TARGET_MODEL } from "./documents";
import { errorLine } from "./logic";
import { ADMIN_TEXT as T } from "./text";

export function TargetModelsSection() {
  const loaded = useAdminLoad(() => request(ADMIN_TARGET_MODELS, {}).then((d) => d.servedTargetModels.targets), []);
  const [open, setOpen] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<{ text: string; ok: boolean } | null>(null);
  const statusRef = useRef<HTMLDivElement>(null);
  const list = loaded.data;

  async function share(model: AdminTargetModel, shared: boolean) {
    setBusy(true);
    try {
      const result = (await request(SHARE_TARGET_MODEL, { name: model.name, shared })).shareTargetModel;
      if (result.__typename === "TargetModelShared") {
        loaded.setData((list ?? []).map((m) => (m.name === result.name ? { ...m, shared: result.shared } : m)));
        setOpen(null);
        setStatus({ text: T.sharedDone(result.name, result.shared), ok: true });
      } else setStatus({ text: errorLine(result), ok: false });
    } catch (e) {
      setStatus({ text: describeError(e), ok: false });
    } finally {
      setBusy(false);
      requestAnimationFrame(() => statusRef.current?.focus());
    }
  }

  return (
    <section aria-labelledby="target-models-title" data-testid="admin-target-models">
      <h2 id="target-models-title">{T.targetsTitle}</h2>
      <p class="hint">{T.targetsLead}</p>
      <div ref={statusRef} tabIndex={-1} role="status" aria-live="polite" class="alert-slot" data-testid="target-share-status">
        {status && <p class={status.ok ? "notice-ok" : "error"}>{status.text}</p>}
      </div>
      {loaded.error && <p role="alert" class="error">{loaded.error}</p>}
      {list === null ? (!loaded.error && <p role="status">{T.loading}</p>) : list.length === 0 ? <p>{T.targetsNone}</p> : (
        <ul class="example-list" aria-labelledby="target-models-title">
          {list.map((model) => (
            <li key={model.name} class="card" data-target={model.name} data-shared={model.shared ? "true" : "false"}>
              <h3 class="card-title">
                {model.name}{" "}
                {model.builtinTask && <span class="badge">{model.shared ? T.sharedBadge : T.notSharedBadge}</span>}
              </h3>
              <p class="hint">
                {model.builtinTask ? T.targetBuiltin(model.builtinTask) : T.targetOpen}
                {" · "}{model.ready ? T.targetReady(model.versions[0] ?? "") : T.targetNotReady}
              </p>
              {model.builtinTask && (open === model.name ? (
                <Confirm
                  id="confirm-share"
                  question={model.shared ? T.confirmUnshare(model.name) : T.confirmShare(model.name)}
                  busy={busy}
                  onConfirm={() => void share(model, !model.shared)}
                  onCancel={() => setOpen(null)}
                />
              ) : (
                <div class="actions">
                  <button type="button" onClick={() => setOpen(model.name)}>{model.shared ? T.unshare : T.share}</button>
                </div>
              ))}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
