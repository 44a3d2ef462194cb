/**
 * Task owners: the task's settings (issue #18 point 1): its texts, its config (a new version per change; the open round
 * keeps its own), its owners and who sees it, with the task's status (a proposal, rejected with the admin's note,
 * public, hidden or archived).
 */
import { request } from "../../api/client";
import { session } from "../../auth/session";
import { useObservable } from "../../lib/observable";
import { href } from "../../router";
import type { PageProps } from "../../routes";
import { useOwnerQuery } from "../useOwnerQuery";
import { OwnersSection, VisibilitySection } from "./AccessSections";
import { ConfigSection } from "./ConfigSection";
import { DetailsSection } from "./DetailsSection";
import { TASK_SETTINGS, type TaskSettings } from "./documents";
import { SETTINGS_TEXT as T } from "./text";
import "./settings.css";

export function SettingsPage({ params }: PageProps) {
  const code = params.code;
  const viewer = useObservable(session)?.user.username ?? "";
  const query = useOwnerQuery(async () => (await request(TASK_SETTINGS, { code })).task, [code, viewer]);
  const task = query.data;
  const back = href(`/owner/${encodeURIComponent(code)}`);

  if (!task) {
    return (
      <section aria-labelledby="page-title">
        <p class="crumbs"><a href={back}>{T.crumb}</a> <span aria-hidden="true">›</span></p>
        <h1 id="page-title" tabIndex={-1}>{T.titleLoading}</h1>
        {query.error ? <p role="alert" class="error">{query.error}</p>
          : <p role="status">{task === null ? T.missing(code) : T.loading}</p>}
      </section>
    );
  }
  const saved = (next: TaskSettings) => query.setData(next);

  return (
    <div class="task-settings">
      <header class="page-head">
        <p class="crumbs"><a href={back}>{T.crumb}</a> <span aria-hidden="true">›</span></p>
        <h1 id="page-title" tabIndex={-1}>{T.title(task.name)}</h1>
        <p class="lead">{T.lead}</p>
        {!task.viewerIsOwner && <p class="note">{T.notOwner}</p>}
        <p class="note" data-testid="task-status" data-status={task.status}>
          <strong>{T.statusLabel}</strong> {T.statuses[task.status]}
          {task.reviewNote && <><br />{T.reviewNote(task.reviewNote)}</>}
        </p>
        {query.error && <p role="alert" class="error">{query.error}</p>}
      </header>
      <DetailsSection key={`details-${task.id}`} task={task} onSaved={saved} />
      <ConfigSection key={`config-${task.id}`} task={task} onSaved={saved} />
      <OwnersSection task={task} viewer={viewer} onOwners={(owners) => saved({ ...task, owners })} />
      <VisibilitySection task={task} onSaved={saved} />
    </div>
  );
}
