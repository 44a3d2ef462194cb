/**
 * The owner's round page: "Run the generator" (docs/design.md §4.1f). A count field and start, then the round's runs
 * with their figures (written, fooled, validated, validated and fooled, awaiting validation, refused), polled every few
 * seconds while one is queued or running; a running run can be cancelled. A lazy chunk (runs/lazy.ts).
 */
import { useEffect, useState } from "preact/hooks";
import { describeError, request } from "../../api/client";
import { formatNumber } from "../../i18n/format";
import { newClientId } from "../../lib/uuid";
import { Status, type Message } from "../status";
import { CANCEL_ADVERSARY_RUN, ROUND_RUNS, START_ADVERSARY_RUN, type AdversaryRun, type RunResult } from "./documents";
import { isActive, MAX_COUNT, parseCount, POLL_MS, share, shouldPoll } from "./runs";
import { RUNS_TEXT as T } from "./text";
import { fieldErrors } from "../../api/types";

export interface RunsPanelProps {
  roundId: string;
  /** The round's number (headings, ids). */
  n: number;
  /** An open round takes new runs; a closed one only shows its runs. */
  open: boolean;
}

export function RunsPanel({ roundId, n, open }: RunsPanelProps) {
  const [runs, setRuns] = useState<AdversaryRun[] | null>(null);
  const [count, setCount] = useState("20");
  const [invalid, setInvalid] = useState(false);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<Message>(null);
  // One client UUID per attempt at starting: a retry after a lost answer finds the same run.
  const [clientId, setClientId] = useState(newClientId);
  const [tick, setTick] = useState(0);

  useEffect(() => {
    let cancelled = false;
    request(ROUND_RUNS, { roundId }).then(
      ({ node }) => !cancelled && setRuns(node?.adversaryRuns ?? []),
      (problem) => !cancelled && setMessage({ text: describeError(problem), ok: false }),
    );
    return () => {
      cancelled = true;
    };
  }, [roundId, tick]);

  useEffect(() => {
    if (!shouldPoll(runs)) return;
    const timer = setTimeout(() => setTick((t) => t + 1), POLL_MS);
    return () => clearTimeout(timer);
  }, [runs]);

  function refused(result: RunResult): string {
    if ("run" in result) return "";
    if ("retryAfterSeconds" in result && result.retryAfterSeconds) return `${result.message} ${T.wait(result.retryAfterSeconds)}`;
    const fields = fieldErrors(result).map((f) => `${f.field}: ${f.message}`).join("; ");
    return fields ? `${result.message} (${fields})` : result.message;
  }

  async function start(event: Event) {
    event.preventDefault();
    const wanted = parseCount(count);
    setInvalid(wanted === null);
    if (wanted === null) {
      setMessage({ text: T.countInvalid(MAX_COUNT), ok: false });
      return;
    }
    setBusy(true);
    try {
      const { startAdversaryRun: result } = await request(START_ADVERSARY_RUN, { input: { roundId, clientId, count: wanted } });
      if (result.__typename === "AdversaryRunStarted" && "run" in result) {
        setClientId(newClientId());
        setMessage({ text: T.started, ok: true });
        setRuns((old) => [result.run, ...(old ?? []).filter((r) => r.id !== result.run.id)]);
      } else setMessage({ text: refused(result), ok: false });
    } catch (problem) {
      setMessage({ text: describeError(problem), ok: false });
    } finally {
      setBusy(false);
    }
  }

  async function cancel(run: AdversaryRun) {
    setBusy(true);
    try {
      const { cancelAdversaryRun: result } = await request(CANCEL_ADVERSARY_RUN, { runId: run.id });
      if (result.__typename === "AdversaryRunCancelled" && "run" in result) {
        setMessage({ text: T.cancelled, ok: true });
        setRuns((old) => (old ?? []).map((r) => (r.id === result.run.id ? result.run : r)));
      } else setMessage({ text: refused(result), ok: false });
    } catch (problem) {
      setMessage({ text: describeError(problem), ok: false });
    } finally {
      setBusy(false);
    }
  }

  const countId = `run-count-${n}`;
  const hintId = `run-count-hint-${n}`;
  return (
    <section class="runs-panel" aria-labelledby={`runs-${n}-title`} data-testid={`runs-${n}`}>
      <h4 id={`runs-${n}-title`}>{open ? T.title(n) : T.runsTitle(n)}</h4>
      {open && (
        <form class="actions" onSubmit={(e) => void start(e)} noValidate>
          <p class="hint">{T.lead}</p>
          <label for={countId}>{T.count}</label>
          <input id={countId} type="number" inputMode="numeric" min={1} max={MAX_COUNT} step={1} size={5} value={count}
            aria-describedby={hintId} aria-invalid={invalid ? "true" : undefined}
            onInput={(e) => { setCount(e.currentTarget.value); setInvalid(false); }} />
          <span id={hintId} class="hint">{T.countHint(MAX_COUNT)}</span>
          <button type="submit" class="primary" disabled={busy}>{busy ? T.starting : T.start}</button>
        </form>
      )}
      <Status message={message} testId={`runs-${n}-status`} />
      {runs === null ? <p role="status">{T.loading}</p> : runs.length === 0 ? <p class="hint">{T.none}</p> : (
        <ul class="run-list">
          {runs.map((run) => (
            <li key={run.id} data-testid="adversary-run" data-status={run.status}>
              <p>
                <strong>{T.status[run.status]}</strong> · <span data-testid="run-progress">{T.progress(run.produced, run.requested)}</span>
              </p>
              <p class="hint"><bdi>{T.byWhom(run.startedBy, run.generator)}</bdi></p>
              {run.error && <p class={run.status === "FAILED" ? "error" : "hint"} data-testid="run-error">{T.reason(run.error)}</p>}
              <div class="table-wrap" tabIndex={0} role="region" aria-label={T.figures}>
                <table>
                  <caption class="visually-hidden">{T.figures}</caption>
                  <tbody>
                    <tr><th scope="row">{T.colProduced}</th><td class="num" data-testid="run-produced">{formatNumber(run.produced)}</td></tr>
                    <tr><th scope="row">{T.colFooled}</th><td class="num">{formatNumber(run.fooled)} ({share(run.fooled, run.produced)})</td></tr>
                    <tr><th scope="row">{T.colValidated}</th><td class="num" data-testid="run-validated">{formatNumber(run.validated)}</td></tr>
                    <tr><th scope="row">{T.colValidatedFooled}</th><td class="num">{formatNumber(run.validatedFooled)} ({share(run.validatedFooled, run.produced)})</td></tr>
                    <tr><th scope="row">{T.colAwaiting}</th><td class="num">{formatNumber(run.awaitingValidation)}</td></tr>
                    <tr><th scope="row">{T.colRefused}</th><td class="num">{formatNumber(run.refused)}</td></tr>
                  </tbody>
                </table>
              </div>
              {isActive(run) && <button type="button" disabled={busy} onClick={() => void cancel(run)}>{T.cancel}</button>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
