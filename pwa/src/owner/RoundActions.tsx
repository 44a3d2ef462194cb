/**
 * One round on the task owner page: open / closed, its targets (an LLM endpoint named as such), an export link on
 * demand (JSONL or an HF-datasets tar.gz, through a short-lived same-origin link), closing with a confirmation step,
 * and, when the task has a generator, its adversary runs (owner/runs/, a lazy chunk).
 */
import { useState } from "preact/hooks";
import { describeError, request } from "../api/client";
import { CLOSE_ROUND, EXPORT_ROUND } from "../api/documents";
import type { ExportFormat, RoundDetail, RoundExport } from "../api/types";
import { href } from "../router";
import { loadTasks } from "../tasks/store";
import { exportFileName } from "./exportName";
import { LazyRunsPanel } from "./runs/lazy";
import { errorText, Status, type Message } from "./status";
import { endpointOfTarget } from "./targets";
import { OWNER_TEXT as T } from "./text";

const FORMAT_FILES: Record<ExportFormat, { label: () => string }> = {
  JSONL: { label: () => "JSONL" },
  HF_DATASET: { label: () => T.hfDataset },
  PREFERENCES: { label: () => T.preferencePairs }, // a battle task's (not offered here; exportRound may answer it)
};

/** A round's target as the owner reads it: "LLM endpoint: <name>", or the model's name and version. */
function targetLabel(target: { name: string; version: string }): string {
  const endpoint = endpointOfTarget(target.name);
  if (endpoint !== null) return T.targetEndpoint(endpoint);
  return target.version ? `${target.name} (${T.targetVersion(target.version)})` : target.name;
}

/** One round: open / closed, its targets, an export link on demand (format JSONL or HF_DATASET), closing with a confirmation step. */
/** `generator`: the task's config names a suggestions generator, so the round offers adversary runs (owner/runs/). */
export function RoundActions({ code, round, onChanged, generator = false }: { code: string; round: RoundDetail; onChanged: () => Promise<void>; generator?: boolean }) {
  const n = round.number;
  const [format, setFormat] = useState<ExportFormat>("JSONL");
  const [link, setLink] = useState<RoundExport | null>(null);
  const [exporting, setExporting] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [closing, setClosing] = useState(false);
  const [message, setMessage] = useState<Message>(null);
  const closed = Boolean(round.endAt);

  async function exportRound() {
    setExporting(true);
    setLink(null);
    try {
      const { exportRound: result } = await request(EXPORT_ROUND, { roundId: round.id, format });
      if (result.__typename === "RoundExport") {
        setLink(result);
        setMessage({ text: T.exportReady(FORMAT_FILES[result.format].label(), n), ok: true });
      } else setMessage({ text: errorText(result), ok: false });
    } catch (problem) {
      setMessage({ text: describeError(problem), ok: false });
    } finally {
      setExporting(false);
    }
  }

  async function closeRound() {
    setClosing(true);
    try {
      const { closeRound: result } = await request(CLOSE_ROUND, { roundId: round.id });
      if (result.__typename === "RoundClosed") {
        setConfirming(false);
        setMessage({ text: T.closedDone(n), ok: true });
        void loadTasks(); // the app's task list no longer offers this round
        await onChanged();
      } else setMessage({ text: errorText(result), ok: false });
    } catch (problem) {
      setMessage({ text: describeError(problem), ok: false });
    } finally {
      setClosing(false);
    }
  }

  const formatId = `export-format-${n}`;
  return (
    <li class="round-item" data-testid={`round-${n}`} data-state={closed ? "closed" : "open"}>
      <div class="round-head">
        <h3 id={`round-${n}-title`}>{T.roundTitle(n)}</h3>
        <span class="round-state" data-testid={`round-${n}-state`}>
          {closed ? T.roundClosed(round.endAt as string) : T.roundOpen}
        </span>
      </div>
      {round.targetModels && round.targetModels.length > 0 && (
        <p class="hint" data-testid={`round-${n}-targets`}>{T.roundTargets(round.targetModels.map(targetLabel))}</p>
      )}
      <div class="actions">
        <label for={formatId}>{T.format}<span class="visually-hidden">{T.formatOf(n)}</span></label>
        <select id={formatId} value={format} onChange={(e) => { setFormat(e.currentTarget.value as ExportFormat); setLink(null); }}>
          {(Object.keys(FORMAT_FILES) as ExportFormat[]).map((f) => <option key={f} value={f}>{FORMAT_FILES[f].label()}</option>)}
        </select>
        <button type="button" disabled={exporting} onClick={() => void exportRound()}>{T.exportRound(n)}</button>
        {!closed && !confirming && <button type="button" onClick={() => setConfirming(true)}>{T.closeRound(n)}</button>}
      </div>
      <p><a href={href(`/owner/${encodeURIComponent(code)}/browse?round=${encodeURIComponent(round.id)}`)}>{T.browseRound(n)}</a></p>
      {!closed && confirming && (
        <div class="actions" role="group" aria-label={T.confirmClose(n)}>
          <span>{T.closeExplain(n)}</span>
          <button type="button" class="primary" disabled={closing} onClick={() => void closeRound()}>{T.yesClose(n)}</button>
          <button type="button" disabled={closing} onClick={() => setConfirming(false)}>{T.cancel}</button>
        </div>
      )}
      {link && (
        <p>
          <a href={link.url} download={exportFileName(code, n, link.format)} data-testid={`round-${n}-download`}>
            {T.download(n, FORMAT_FILES[link.format].label())}
          </a>{" "}
          <span class="hint">{T.linkUntil(link.expiresAt)}</span>
        </p>
      )}
      <Status message={message} testId={`round-${n}-status`} />
      {generator && <LazyRunsPanel roundId={round.id} n={n} open={!closed} />}
    </li>
  );
}
