/** Task owners: the task's crowd campaigns (status, ledger totals), the task's quality (gold, duplicates) and a form for a new one. */
import { describeError, request } from "../../api/client";
import { session } from "../../auth/session";
import { formatMoney } from "../../join/flow";
import { useObservable } from "../../lib/observable";
import { href, navigate } from "../../router";
import type { PageProps } from "../../routes";
import { useTaskDetail } from "../../tasks/detail";
import { useOwnerQuery } from "../useOwnerQuery";
import { CampaignForm } from "./CampaignForm";
import { CAMPAIGNS, CREATE_CAMPAIGN } from "./documents";
import { emptyForm } from "./form";
import { QualityPanel } from "./QualityPanel";
import { CAMPAIGN_TEXT as T } from "./text";
import { TaskState } from "../TaskState";
import { fieldErrors } from "../../api/types";

export function CampaignsPage({ params }: PageProps) {
  const code = params.code;
  const username = useObservable(session)?.user.username ?? "";
  const detail = useTaskDetail(code, username);
  const { data: campaigns, error } = useOwnerQuery(async () => (await request(CAMPAIGNS, { taskCode: code })).campaigns, [code]);

  const task = detail.task;
  return (
    <section aria-labelledby="page-title" class="campaigns">
      <p class="crumbs"><a href={href(`/owner/${encodeURIComponent(code)}`)}>{T.backToTask}</a> <span aria-hidden="true">›</span></p>
      <h1 id="page-title" tabIndex={-1}>{T.listTitle(task?.name ?? code)}</h1>
      <TaskState status={task?.status} reviewNote={task?.reviewNote} />
      <p class="lead">{T.listLead}</p>
      {error && <p role="alert" class="error">{error}</p>}
      {campaigns === undefined ? (
        <p role="status">{T.loading}</p>
      ) : campaigns.length === 0 ? (
        <p>{T.none}</p>
      ) : (
        <ul class="example-list" data-testid="campaign-list">
          {campaigns.map((c) => (
            <li class="card example-row" key={c.id}>
              <h2><a href={href(`/owner/${encodeURIComponent(code)}/campaigns/${encodeURIComponent(c.id)}`)}>{c.title}</a></h2>
              <p class="example-row-head">
                <span class="status-tag">{T.statusText[c.status]}</span>
                <span class="status-tag">{c.platform}</span>
                <span class="hint">{T.ledgerTotal}: {formatMoney(c.ledger.totalCents, c.currency)} · {T.ledgerWorkers}: {c.ledger.workers}</span>
              </p>
            </li>
          ))}
        </ul>
      )}
      <QualityPanel taskCode={code} />
      <h2>{T.newCampaign}</h2>
      {task && (
        <CampaignForm
          key={task.id}
          initial={emptyForm(task.currentRound?.number ?? null)}
          creating
          submitLabel={T.create}
          onSubmit={async (input) => {
            try {
              const { createCampaign: result } = await request(CREATE_CAMPAIGN, { taskCode: code, input });
              if (result.__typename === "CampaignSaved") {
                navigate(`/owner/${encodeURIComponent(code)}/campaigns/${encodeURIComponent(result.campaign.id)}`);
                return T.created(result.campaign.title);
              }
              return fieldErrors(result).length ? fieldErrors(result) : result.message;
            } catch (problem) {
              return describeError(problem);
            }
          }}
        />
      )}
    </section>
  );
}
