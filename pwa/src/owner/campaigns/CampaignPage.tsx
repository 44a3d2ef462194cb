/**
 * Task owners: one campaign — its join link, its progress counts (workers by stage, examples, validations), links to
 * the round's validation page and the task's quality panel, the ledger totals (earned, pending, exported, workers,
 * unmatched accounts), importing the platform's approved submissions (CSV upload), exporting payouts (a CSV download built in
 * the browser from exportPayouts' answer), and the settings form.
 */
import { useEffect, useState } from "preact/hooks";
import { describeError, request, requestUpload } from "../../api/client";
import { session } from "../../auth/session";
import { formatMoney } from "../../join/flow";
import { useObservable } from "../../lib/observable";
import { href } from "../../router";
import type { PageProps } from "../../routes";
import { useTaskDetail } from "../../tasks/detail";
import type { Message } from "../status";
import { useOwnerQuery } from "../useOwnerQuery";
import { CampaignForm } from "./CampaignForm";
import { CAMPAIGN, EXPORT_PAYOUTS, IMPORT_APPROVED, UPDATE_CAMPAIGN } from "./documents";
import { formOf, QUOTA_NAMES } from "./form";
import { progressRows } from "./progress";
import { CAMPAIGN_TEXT as T } from "./text";
import { TaskState } from "../TaskState";
import { fieldErrors } from "../../api/types";

export function joinLink(code: string): string {
  return `${window.location.origin}/#/join/${encodeURIComponent(code)}`;
}

export function CampaignPage({ params }: PageProps) {
  const { code, id } = params;
  const username = useObservable(session)?.user.username ?? "";
  const detail = useTaskDetail(code, username);
  const { data: campaign, error, reload: load, setData: setCampaign } = useOwnerQuery(
    async () => (await request(CAMPAIGN, { id })).campaign,
    [id],
  );
  const [file, setFile] = useState<File | null>(null);
  const [importMessage, setImportMessage] = useState<Message>(null);
  const [exportMessage, setExportMessage] = useState<Message>(null);
  const [download, setDownload] = useState<{ url: string; name: string } | null>(null);

  useEffect(() => () => { if (download) URL.revokeObjectURL(download.url); }, [download]);

  if (!campaign) {
    return (
      <section aria-labelledby="page-title">
        <h1 id="page-title" tabIndex={-1}>{T.general}</h1>
        <p role="status">{error ?? (campaign === null ? T.none : T.loading)}</p>
        <p><a href={href(`/owner/${encodeURIComponent(code)}/campaigns`)}>{T.allCampaigns}</a></p>
      </section>
    );
  }
  const c = campaign;
  const roundNumber = detail.task?.rounds.edges.find((e) => e.node.id === c.roundId)?.node.number ?? null;
  const money = (cents: number) => formatMoney(cents, c.currency);

  async function importFile(event: Event) {
    event.preventDefault();
    if (!file) {
      setImportMessage({ text: T.chooseFile, ok: false });
      document.getElementById("import-file")?.focus();
      return;
    }
    try {
      const { importApprovedSubmissions: result } = await requestUpload(IMPORT_APPROVED, { campaignId: c.id, file: null }, { file });
      if (result.__typename === "ApprovedImported") {
        const problems = result.problems.length ? ` ${result.problems.join(" ")}` : "";
        setImportMessage({ text: T.imported(result.matched, result.unknown, result.notApproved) + problems, ok: true });
        void load();
      } else setImportMessage({ text: result.message, ok: false });
    } catch (problem) {
      setImportMessage({ text: describeError(problem), ok: false });
    }
  }

  async function exportPayouts(format: "PROLIFIC" | "MTURK") {
    try {
      const { exportPayouts: result } = await request(EXPORT_PAYOUTS, { campaignId: c.id, format });
      if (result.__typename === "PayoutsExported") {
        const url = URL.createObjectURL(new Blob([result.csv], { type: "text/csv" }));
        setDownload({ url, name: `${c.code}-${format.toLowerCase()}-bonuses.csv` });
        setExportMessage({ text: T.exported(money(result.totalCents), result.workers, result.unpaidWorkers), ok: true });
        void load();
      } else setExportMessage({ text: result.message, ok: false });
    } catch (problem) {
      setExportMessage({ text: describeError(problem), ok: false });
    }
  }

  const quotas = QUOTA_NAMES.map((n) => `${T.quotaText[n]}: ${c.quotas[n] ?? T.noLimit}`);
  return (
    <section aria-labelledby="page-title" class="campaign">
      <p class="crumbs">
        <a href={href(`/owner/${encodeURIComponent(code)}`)}>{T.backToTask}</a> <span aria-hidden="true">›</span>{" "}
        <a href={href(`/owner/${encodeURIComponent(code)}/campaigns`)}>{T.allCampaigns}</a> <span aria-hidden="true">›</span>
      </p>
      <h1 id="page-title" tabIndex={-1}>{c.title}</h1>
      <TaskState status={detail.task?.status} reviewNote={detail.task?.reviewNote} />
      <p class="example-row-head"><span class="status-tag">{T.statusText[c.status]}</span> <span class="status-tag">{c.platform}</span></p>
      <div class="card">
        <h2>{T.link}</h2>
        <p><code class="join-link" data-testid="join-link">{joinLink(c.code)}</code></p>
        <p class="hint">{T.linkHint(c.platform)}</p>
      </div>
      <section class="card" aria-labelledby="progress-title" data-testid="progress">
        <h2 id="progress-title">{T.progressTitle}</h2>
        <dl class="pairs">
          {progressRows(c.progress, c.quiz.length > 0).map((row) => (
            <div key={row.name} data-name={row.name}>
              <dt>{T.progressText[row.name]}</dt>
              <dd>{row.count}{row.percent !== null && <span class="hint"> {T.percentOf(row.percent)}</span>}</dd>
            </div>
          ))}
        </dl>
        <ul class="links">
          <li><a href={href(`/validate/${encodeURIComponent(code)}?round=${encodeURIComponent(c.roundId)}`)}>{T.validationLink}</a></li>
          <li><a href={href(`/owner/${encodeURIComponent(code)}/campaigns`)}>{T.qualityLink}</a></li>
        </ul>
      </section>
      <div class="card" data-testid="ledger">
        <h2>{T.ledgerTitle}</h2>
        <dl class="pairs">
          <div><dt>{T.ledgerTotal}</dt><dd>{money(c.ledger.totalCents)}</dd></div>
          <div><dt>{T.ledgerPending}</dt><dd>{money(c.ledger.pendingCents)}</dd></div>
          <div><dt>{T.ledgerExported}</dt><dd>{money(c.ledger.exportedCents)}</dd></div>
          <div><dt>{T.ledgerWorkers}</dt><dd>{c.ledger.workers}</dd></div>
        </dl>
        {c.ledger.unmatched.length > 0 && (
          <>
            <p>{T.unmatched(c.ledger.unmatched.length)}</p>
            <ul>{c.ledger.unmatched.map((name) => <li key={name}>{name}</li>)}</ul>
          </>
        )}
        <details class="disclosure">
          <summary>{T.quotasSummary}</summary>
          <ul>{quotas.map((q) => <li key={q}>{q}</li>)}</ul>
        </details>
      </div>
      <form class="card inline-form" onSubmit={(e) => void importFile(e)}>
        <h2>{T.importTitle}</h2>
        <p class="hint" id="import-hint">{T.importHint}</p>
        <label for="import-file">{T.importFile}</label>
        <input id="import-file" type="file" accept=".csv,text/csv" aria-describedby="import-hint" onChange={(e) => setFile((e.target as HTMLInputElement).files?.[0] ?? null)} />
        <button type="submit">{T.importButton}</button>
        <p role="status" aria-live="polite" class={importMessage ? (importMessage.ok ? "notice-ok" : "error") : ""}>{importMessage?.text}</p>
      </form>
      {c.platform !== "OPEN" && (
        <div class="card">
          <h2>{T.exportTitle}</h2>
          <p class="hint">{T.exportHint}</p>
          <div class="actions">
            <button type="button" onClick={() => void exportPayouts(c.platform === "MTURK" ? "MTURK" : "PROLIFIC")}>
              {c.platform === "MTURK" ? T.exportMturk : T.exportProlific}
            </button>
            {download && <a href={download.url} download={download.name} data-testid="payout-download">{T.download}</a>}
          </div>
          <p role="status" aria-live="polite" class={exportMessage ? (exportMessage.ok ? "notice-ok" : "error") : ""}>{exportMessage?.text}</p>
        </div>
      )}
      <h2>{T.general}</h2>
      <CampaignForm
        key={`${c.id}/${roundNumber}`}
        initial={formOf(c, roundNumber)}
        creating={false}
        submitLabel={T.save}
        onSubmit={async (input) => {
          try {
            const { updateCampaign: result } = await request(UPDATE_CAMPAIGN, { campaignId: c.id, input });
            if (result.__typename === "CampaignSaved") {
              setCampaign(result.campaign);
              return T.saved;
            }
            return fieldErrors(result).length ? fieldErrors(result) : result.message;
          } catch (problem) {
            return describeError(problem);
          }
        }}
      />
    </section>
  );
}
