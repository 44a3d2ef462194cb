/**
 * Task owners: near-duplicates refused and each validator's gold accuracy, reliability and pause state
 * (taskQuality); a paused validator can be reinstated (reinstateValidator, after a confirmation step), then the
 * table is loaded again.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { describeError, request } from "../../api/client";
import type { Message } from "../status";
import { useOwnerQuery } from "../useOwnerQuery";
import { REINSTATE_VALIDATOR, TASK_QUALITY, type ValidatorQuality } from "./documents";
import { formatDateTime } from "../../i18n/format";
import { CAMPAIGN_TEXT as T } from "./text";

const percent = (value: number | null) => (value === null ? "—" : `${Math.round(value * 100)}%`);
const when = (iso: string) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : formatDateTime(date);
};

export function QualityPanel({ taskCode }: { taskCode: string }) {
  const query = useOwnerQuery(async () => (await request(TASK_QUALITY, { taskCode })).taskQuality, [taskCode]);
  const quality = query.data;
  const [confirming, setConfirming] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<Message>(null);

  async function reinstate(username: string) {
    setBusy(true);
    try {
      const { reinstateValidator: result } = await request(REINSTATE_VALIDATOR, { taskCode, username });
      if (result.__typename === "ValidatorReinstated") {
        setMessage({ text: T.reinstated(username), ok: true });
        setConfirming(null);
        await query.reload();
        document.getElementById("quality-status")?.focus();
      } else setMessage({ text: result.message, ok: false });
    } catch (problem) {
      setMessage({ text: describeError(problem), ok: false });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section class="card" aria-labelledby="quality-title" data-testid="quality">
      <h2 id="quality-title">{T.quality}</h2>
      {query.error && <p role="alert" class="error">{query.error}</p>}
      {!quality ? (
        !query.error && <p role="status">{T.loading}</p>
      ) : (
        <>
          <p>{T.duplicatesRefused(quality.duplicatesRefused)}</p>
          {quality.validators.length === 0 ? (
            <p>{T.noValidators}</p>
          ) : (
            <div class="table-wrap" tabIndex={0} role="region" aria-labelledby="quality-caption">
              <table>
                <caption id="quality-caption">{T.validatorsCaption}</caption>
                <thead>
                  <tr>
                    <th scope="col">{T.validator}</th><th scope="col">{T.votes}</th><th scope="col">{T.gold}</th>
                    <th scope="col">{T.accuracy}</th><th scope="col"><abbr title={T.reliabilityHint}>{T.reliability}</abbr></th>
                    <th scope="col">{T.pausedHead}</th><th scope="col">{T.actionsHead}</th>
                  </tr>
                </thead>
                <tbody>
                  {quality.validators.map((v) => (
                    <ValidatorRow key={v.username} v={v} confirming={confirming === v.username} busy={busy}
                      onAsk={() => { setConfirming(v.username); setMessage(null); }}
                      onCancel={() => setConfirming(null)} onConfirm={() => void reinstate(v.username)} />
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
      <p id="quality-status" tabIndex={-1} role="status" aria-live="polite" data-testid="quality-status"
        class={message ? (message.ok ? "notice-ok" : "error") : ""}>{message?.text}</p>
    </section>
  );
}

interface RowProps {
  v: ValidatorQuality;
  confirming: boolean;
  busy: boolean;
  onAsk: () => void;
  onCancel: () => void;
  onConfirm: () => void;
}

function ValidatorRow({ v, confirming, busy, onAsk, onCancel, onConfirm }: RowProps) {
  const yes = useRef<HTMLButtonElement>(null);
  useEffect(() => { if (confirming) yes.current?.focus(); }, [confirming]);
  return (
    <tr>
      <th scope="row">{v.username}</th>
      <td>{v.votes}</td>
      <td>{v.goldCorrect} / {v.goldAnswered}</td>
      <td>{percent(v.goldAccuracy)}</td>
      <td>{percent(v.reliability)}</td>
      <td>
        {v.paused ? T.paused : T.active}
        {v.reinstatedAt && <span class="hint"> · {T.reinstatedOn(when(v.reinstatedAt))}</span>}
      </td>
      <td>
        {v.paused && !confirming && <button type="button" onClick={onAsk}>{T.reinstate(v.username)}</button>}
        {v.paused && confirming && (
          <div class="actions" role="group" aria-label={T.reinstate(v.username)}>
            <span>{T.reinstateConfirm(v.username)}</span>
            <button type="button" class="primary" disabled={busy} onClick={onConfirm} ref={yes}>{T.reinstateYes}</button>
            <button type="button" disabled={busy} onClick={onCancel}>{T.cancel}</button>
          </div>
        )}
      </td>
    </tr>
  );
}
