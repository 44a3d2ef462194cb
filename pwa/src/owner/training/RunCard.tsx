/**
 * One training run: its status in words, a progress bar while it is active, the version, rounds, profile, what it
 * trained on (and how many of those were examples the model agreed with, or that the run left them out), its cost and
 * its log (collapsible); once judged, the gate's comparisons; and what the run offers by its status (training.ts
 * actionsFor): cancel (asked first), override the gate with a reason, open the next round with its version (asked
 * first: that closes the open round).
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { describeError, request } from "../../api/client";
import { fieldErrors } from "../../api/types";
import { formatDateTime, formatNumber } from "../../i18n/format";
import { loadTasks } from "../../tasks/store";
import { errorText, Status, type Message } from "../status";
import { CANCEL_TRAINING_RUN, OPEN_NEXT_ROUND, OVERRIDE_TRAINING_GATE, type TrainingRun } from "./documents";
import { GateView } from "./GateView";
import { actionsFor, checkReason, formatCpu, formatDuration, formatProgress, isActive, MAX_REASON, STATUSES, type RunStatus } from "./training";
import { TRAINING_TEXT as T } from "./text";

export interface RunCardProps {
  run: TrainingRun;
  taskCode: string;
  online: boolean;
  /** The open round is judged by this run's version already (no "open the next round"). */
  versionInUse: boolean;
  onChanged: (run: TrainingRun) => void;
  onRoundOpened: () => void;
}

export const statusWord = (status: string) => (STATUSES.includes(status as RunStatus) ? T.status[status as RunStatus] : status);
export const runTitleId = (run: Pick<TrainingRun, "id">) => `run-${run.id.replace(/[^A-Za-z0-9_-]/g, "")}`;

export function RunCard({ run, taskCode, online, versionInUse, onChanged, onRoundOpened }: RunCardProps) {
  const id = runTitleId(run);
  const [message, setMessage] = useState<Message>(null);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState<"cancel" | "open" | null>(null);
  const [reason, setReason] = useState("");
  const [reasonError, setReasonError] = useState("");
  const heading = useRef<HTMLHeadingElement>(null);
  const confirmButton = useRef<HTMLButtonElement>(null);
  const reasonField = useRef<HTMLTextAreaElement>(null);
  const actions = actionsFor(run, versionInUse);
  const active = isActive(run);
  const when = formatDateTime(run.createdAt);

  useEffect(() => {
    if (confirming) confirmButton.current?.focus();
  }, [confirming]);

  async function act<R extends { __typename: string }>(call: () => Promise<R>, done: (result: R) => boolean) {
    setBusy(true);
    try {
      const result = await call();
      if (!done(result)) setMessage({ text: errorText(result as never), ok: false });
    } catch (problem) {
      setMessage({ text: describeError(problem), ok: false });
    } finally {
      setBusy(false);
    }
  }

  const cancel = () =>
    act(() => request(CANCEL_TRAINING_RUN, { runId: run.id }).then((d) => d.cancelTrainingRun), (result) => {
      setConfirming(null);
      if (result.__typename !== "TrainingRunCancelled" || !("run" in result)) return false;
      onChanged(result.run);
      setMessage({ text: result.run.status === "cancelled" ? T.cancelledDone : T.cancelAsked, ok: true });
      heading.current?.focus();
      return true;
    });

  async function override(event: Event) {
    event.preventDefault();
    const problem = checkReason(reason);
    if (problem) {
      setReasonError(problem === "required" ? T.reasonRequired : T.reasonTooLong(MAX_REASON));
      reasonField.current?.focus();
      return;
    }
    setReasonError("");
    await act(() => request(OVERRIDE_TRAINING_GATE, { runId: run.id, reason: reason.trim() }).then((d) => d.overrideTrainingGate), (result) => {
      if (result.__typename === "TrainingGateOverridden" && "run" in result) {
        onChanged(result.run);
        setReason("");
        setMessage({ text: T.overrideDone, ok: true });
        heading.current?.focus();
        return true;
      }
      const onReason = "code" in result ? fieldErrors(result).find((f) => f.field === "reason") : undefined;
      if (onReason) {
        setReasonError(onReason.message);
        setMessage({ text: result.message, ok: false });
        reasonField.current?.focus();
        return true;
      }
      return false;
    });
  }

  const openRound = () =>
    act(() => request(OPEN_NEXT_ROUND, { taskCode, modelVersion: run.modelVersion }).then((d) => d.openNextRound), (result) => {
      setConfirming(null);
      if (result.__typename !== "NextRoundOpened" || !("round" in result)) return false;
      setMessage({ text: T.roundOpened(result.round.number, run.modelVersion), ok: true });
      void loadTasks(); // the app's task list (annotate, validate) has a new open round now
      onRoundOpened();
      heading.current?.focus();
      return true;
    });

  const log = run.statusLog;
  const described = [`${id}-reason-hint`, `${id}-reason-count`, reasonError ? `${id}-reason-error` : ""].filter(Boolean).join(" ");
  return (
    <li class="card training-run" data-testid="training-run" data-status={run.status} aria-labelledby={id}>
      <h3 id={id} tabIndex={-1} ref={heading}>{T.runTitle(when)}</h3>
      <p class="run-status-line">
        <span class="hint">{T.statusLabel}: </span>
        <strong class={`status-tag run-status run-status-${run.status}`} data-testid="run-status">{statusWord(run.status)}</strong>
      </p>
      {active && run.cancelRequested && <p class="note" data-testid="run-stopping">{T.stopping}</p>}
      {active && (
        <div class="run-progress">
          <label for={`${id}-progress`}>{T.progressLabel}</label>
          <progress id={`${id}-progress`} max={1} value={Math.max(0, Math.min(1, run.progress))}>{formatProgress(run.progress)}</progress>
          <span data-testid="run-progress">{T.progress(formatProgress(run.progress))}</span>
        </div>
      )}
      <dl class="run-facts">
        <div><dt>{T.version}</dt><dd data-testid="run-version">{run.modelVersion ? <bdi>{run.newModelId ? T.retrainedUpload(run.modelVersion) : `${run.modelName} ${run.modelVersion}`}</bdi> : T.notBuilt}</dd></div>
        <div><dt>{T.fromRounds}</dt><dd data-testid="run-rounds">
          {run.fromRounds.length ? T.roundList(run.fromRounds.map((n) => formatNumber(n)).join(", ")) : T.seedOnly}
          {" · "}{T.profileName[run.profile.toLowerCase() as "fast" | "full"] ?? run.profile}
        </dd></div>
        {run.trainingData && (
          <div><dt>{T.trainedOn}</dt><dd data-testid="run-trained">{T.trained(run.trainingData.validatedExamples, run.trainingData.validatedHeldOut)}</dd></div>
        )}
        <div><dt>{T.agreedOn}</dt><dd data-testid="run-agreed">
          {!run.includeAgreed ? T.agreedLeftOut : run.trainingData ? T.agreedCount(run.trainingData.agreedRead) : T.agreedIncluded}
        </dd></div>
        <div><dt>{T.gateRules}</dt><dd>{T.rules(formatNumber(run.scoringTolerance, { maximumFractionDigits: 4 }), run.minHeldOut)}</dd></div>
        <div><dt>{T.cost}</dt><dd data-testid="run-cost">{T.costValue(formatDuration(run.wallSeconds), formatCpu(run.cpuSeconds))}</dd></div>
      </dl>
      {run.gate && <GateView gate={run.gate} id={id} />}
      {run.overriddenAt && (
        <div class="note" data-testid="run-overridden">
          <p>{T.overridden(run.overriddenBy ?? "—", formatDateTime(run.overriddenAt))}</p>
          {run.overrideReason && <p dir="auto">{T.overriddenReason(run.overrideReason)}</p>}
        </div>
      )}
      {versionInUse && run.status === "published" && <p class="hint">{T.inUse(run.modelVersion)}</p>}

      {actions.includes("cancel") && (confirming === "cancel" ? (
        <div class="actions" role="group" aria-labelledby={`${id}-confirm-cancel`} data-testid="confirm-cancel">
          <span id={`${id}-confirm-cancel`}>{T.confirmCancel}</span>
          <button type="button" class="primary" ref={confirmButton} disabled={busy || !online} onClick={() => void cancel()}>{T.yesCancel}</button>
          <button type="button" disabled={busy} onClick={() => { setConfirming(null); heading.current?.focus(); }}>{T.keepRunning}</button>
        </div>
      ) : (
        <div class="actions">
          <button type="button" disabled={busy || !online} onClick={() => setConfirming("cancel")}>{T.cancel}</button>
        </div>
      ))}

      {actions.includes("override") && (
        <form class="override-form" onSubmit={(e) => void override(e)} noValidate aria-labelledby={`${id}-override-title`}>
          <h4 id={`${id}-override-title`}>{T.overrideTitle}</h4>
          <p class="hint" id={`${id}-reason-hint`}>{T.overrideHint}</p>
          <div class="field">
            <label for={`${id}-reason`}>{T.reason}</label>
            <textarea id={`${id}-reason`} ref={reasonField} rows={3} value={reason} dir="auto" required
              aria-describedby={described} aria-invalid={reasonError ? "true" : undefined}
              onInput={(e) => { setReason(e.currentTarget.value); setReasonError(""); }} />
            <p class={reason.trim().length > MAX_REASON ? "error" : "hint"} id={`${id}-reason-count`}>{T.reasonCount(reason.trim().length, MAX_REASON)}</p>
            {reasonError && <p class="field-error" id={`${id}-reason-error`} data-testid="reason-error">{reasonError}</p>}
          </div>
          <button type="submit" disabled={busy || !online}>{busy ? T.overriding : T.override}</button>
        </form>
      )}

      {actions.includes("openRound") && (confirming === "open" ? (
        <div class="actions" role="group" aria-labelledby={`${id}-confirm-open`} data-testid="confirm-open">
          <span id={`${id}-confirm-open`}>{T.confirmOpen(run.modelVersion)}</span>
          <button type="button" class="primary" ref={confirmButton} disabled={busy || !online} onClick={() => void openRound()}>{T.yesOpen}</button>
          <button type="button" disabled={busy} onClick={() => { setConfirming(null); heading.current?.focus(); }}>{T.goBack}</button>
        </div>
      ) : (
        <div class="actions">
          <button type="button" disabled={busy || !online} onClick={() => setConfirming("open")}>{T.openRound(run.modelVersion)}</button>
        </div>
      ))}

      <Status message={message} testId="run-message" />

      <details class="disclosure" data-testid="run-log">
        <summary>{T.log}</summary>
        {log.length === 0 ? <p class="hint">{T.logEmpty}</p> : (
          <ol class="status-log">
            {log.map((entry, i) => (
              <li key={i} data-status={entry.status}>
                <strong>{statusWord(entry.status)}</strong>{" "}
                <time class="hint" dateTime={entry.at}>{formatDateTime(entry.at)}</time>
                {entry.message && <div class="log-message" dir="auto">{entry.message}</div>}
              </li>
            ))}
          </ol>
        )}
      </details>
    </li>
  );
}
