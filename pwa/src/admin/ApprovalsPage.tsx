/** Admins: the proposed tasks, each approved (it becomes public) or rejected with a note to its owners. */
import { useRef, useState } from "preact/hooks";
import { describeError, request } from "../api/client";
import type { PageProps } from "../routes";
import { AdminFrame, useAdminLoad } from "./AdminFrame";
import { Confirm } from "./Confirm";
import { APPROVE_TASK, PENDING_TASKS, type PendingTask, REJECT_TASK } from "./documents";
import { errorLine, when } from "./logic";
import { ADMIN_TEXT as T } from "./text";

type Decision = "approve" | "reject";

export function ApprovalsPage(_props: PageProps) {
  const pending = useAdminLoad(() => request(PENDING_TASKS, {}).then((d) => d.pendingTasks), []);
  const [open, setOpen] = useState<{ code: string; decision: Decision } | null>(null);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<{ text: string; ok: boolean } | null>(null);
  const statusRef = useRef<HTMLDivElement>(null);
  const list = pending.data;

  async function decide(task: PendingTask, decision: Decision, note: string) {
    setBusy(true);
    try {
      const result = decision === "approve"
        ? (await request(APPROVE_TASK, { code: task.code, note })).approveTask
        : (await request(REJECT_TASK, { code: task.code, note })).rejectTask;
      if ("code" in result) {
        setStatus({ text: errorLine(result), ok: false });
      } else {
        pending.setData((list ?? []).filter((t) => t.code !== task.code));
        setOpen(null);
        setStatus({ text: decision === "approve" ? T.approved(task.code) : T.rejected(task.code), ok: true });
      }
    } catch (e) {
      setStatus({ text: describeError(e), ok: false });
    } finally {
      setBusy(false);
      requestAnimationFrame(() => statusRef.current?.focus());
    }
  }

  return (
    <AdminFrame tab="approvals" title={T.approvalsTitle} forbidden={pending.forbidden}>
      <p class="lead">{T.approvalsLead}</p>
      <div ref={statusRef} tabIndex={-1} role="status" aria-live="polite" class="alert-slot" data-testid="admin-status">
        {status && <p class={status.ok ? "notice-ok" : "error"}>{status.text}</p>}
      </div>
      {pending.error && <p role="alert" class="error">{pending.error}</p>}
      {list === null ? (!pending.error && <p role="status">{T.loading}</p>) : list.length === 0 ? <p>{T.noPending}</p> : (
        <ul class="example-list" aria-label={T.approvalsTitle} data-testid="pending-tasks">
          {list.map((task) => (
            <li key={task.code} class="card" data-task={task.code}>
              <h2 class="card-title">{task.name} <code>{task.code}</code></h2>
              {task.description && <p>{task.description}</p>}
              <p class="hint">{T.proposedBy(task.owners)} {T.proposedOn(when(task.createdAt))}</p>
              {open?.code === task.code ? (
                <Confirm
                  id={`confirm-${open.decision}`}
                  question={open.decision === "approve" ? T.confirmApprove(task.code) : T.confirmReject(task.code)}
                  reason={{ label: T.noteLabel, required: false }}
                  busy={busy}
                  onConfirm={(note) => void decide(task, open.decision, note)}
                  onCancel={() => setOpen(null)}
                />
              ) : (
                <div class="actions">
                  <button type="button" class="primary" onClick={() => setOpen({ code: task.code, decision: "approve" })}>{T.approve}</button>{" "}
                  <button type="button" onClick={() => setOpen({ code: task.code, decision: "reject" })}>{T.reject}</button>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
    </AdminFrame>
  );
}
