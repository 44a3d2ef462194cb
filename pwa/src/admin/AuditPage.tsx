/** Admins: every admin action, newest first, filtered by action or by the admin who acted. */
import { useState } from "preact/hooks";
import { request } from "../api/client";
import type { PageProps } from "../routes";
import { AdminFrame, MoreButton, usePaged } from "./AdminFrame";
import { AUDIT_LOG, type AuditAction } from "./documents";
import { auditFilters, when } from "./logic";
import { ADMIN_TEXT as T } from "./text";

const ACTIONS = Object.keys(T.actions) as AuditAction[];

export function AuditPage(_props: PageProps) {
  const [action, setAction] = useState<"" | AuditAction>("");
  const [actor, setActor] = useState("");
  const [applied, setApplied] = useState(auditFilters("", ""));
  const paged = usePaged((after) => request(AUDIT_LOG, { ...applied, after }).then((d) => d.auditLog), [applied]);
  const list = paged.items;

  return (
    <AdminFrame tab="audit" title={T.auditTitle} forbidden={paged.forbidden}>
      <form class="filters" role="search" onSubmit={(e) => { e.preventDefault(); setApplied(auditFilters(action, actor)); }}>
        <div class="field">
          <label for="audit-action">{T.actionFilter}</label>
          <select id="audit-action" value={action} onChange={(e) => setAction((e.target as HTMLSelectElement).value as "" | AuditAction)}>
            <option value="">{T.anyAction}</option>
            {ACTIONS.map((a) => <option key={a} value={a}>{T.actions[a]}</option>)}
          </select>
        </div>
        <div class="field">
          <label for="audit-actor">{T.actorFilter}</label>
          <input dir="auto" id="audit-actor" type="search" maxLength={64} value={actor} onInput={(e) => setActor((e.target as HTMLInputElement).value)} />
        </div>
        <button type="submit">{T.filter}</button>
      </form>
      {paged.error && <p role="alert" class="error">{paged.error}</p>}
      {list === null ? (!paged.error && <p role="status">{T.loading}</p>) : list.length === 0 ? <p>{T.noAudit}</p> : (
        <>
          <ol class="example-list" aria-label={T.auditTitle} data-testid="audit-log">
            {list.map((entry) => (
              <li key={entry.id} class="card" data-action={entry.action}>
                <p><strong>{T.actions[entry.action] ?? entry.action}</strong> · {entry.targetType} <code>{entry.targetLabel}</code></p>
                <p class="hint">{entry.actor} · <time dateTime={entry.createdAt}>{when(entry.createdAt)}</time></p>
                {entry.reason && <p dir="auto">{entry.reason}</p>}
              </li>
            ))}
          </ol>
          <MoreButton paged={paged} />
        </>
      )}
    </AdminFrame>
  );
}
