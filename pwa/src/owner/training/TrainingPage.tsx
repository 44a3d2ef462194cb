/**
 * Task owners: retraining the task's target model (issue #35, docs/design.md §4.8a). A form to start a retraining,
 * then the task's runs, newest first: each active one followed live (`trainingRunUpdated`; polled when the live
 * connection fails), status changes announced, the gate's comparisons once judged, and cancel / override / open the
 * next round by status. Offline, the last list read (kept in IndexedDB) shows with a note and the actions wait; it is
 * re-read on reconnect.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { describeError, request } from "../../api/client";
import { subscribe } from "../../api/ws";
import { session } from "../../auth/session";
import { formatDateTime } from "../../i18n/format";
import { reconnected, online } from "../../lib/network";
import { useObservable } from "../../lib/observable";
import { href } from "../../router";
import type { PageProps } from "../../routes";
import { cacheGet, cachePut } from "../../storage/db";
import { useTaskDetail } from "../../tasks/detail";
import { TaskState } from "../TaskState";
import { TRAINING_RUN_WATCH, TRAINING_RUNS, type TrainingRun } from "./documents";
import { RunCard, runTitleId, statusWord } from "./RunCard";
import { StartForm } from "./StartForm";
import { activeIds, canStart, liveMode, mergeRun, POLL_MS, RUNS_SHOWN, runVersionKey, statusChanges, versionsInUse } from "./training";
import { TRAINING_TEXT as T } from "./text";
import "./training.css";

export function TrainingPage({ params }: PageProps) {
  const code = params.code;
  const username = useObservable(session)?.user.username ?? "";
  const isOnline = useObservable(online);
  const detail = useTaskDetail(code, username);
  const [runs, setRuns] = useState<TrainingRun[] | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const [liveFailed, setLiveFailed] = useState(false);
  const [announcement, setAnnouncement] = useState("");
  const [focusRun, setFocusRun] = useState<string | null>(null);
  const latest = useRef(0);
  const previous = useRef<TrainingRun[] | undefined>(undefined);

  // The last list read is kept per user and task (IndexedDB), shown when the page opens offline.
  const cacheKey = `trainingRuns/${username}/${code}`;
  async function load() {
    const call = ++latest.current;
    try {
      const { trainingRuns } = await request(TRAINING_RUNS, { taskCode: code, first: RUNS_SHOWN });
      if (call !== latest.current) return;
      setRuns(trainingRuns);
      setError(null);
      void cachePut(cacheKey, trainingRuns).catch(() => {});
    } catch (problem) {
      if (call !== latest.current) return;
      setError(describeError(problem));
      const cached = await cacheGet<TrainingRun[]>(cacheKey).catch(() => undefined);
      if (cached && call === latest.current) setRuns((list) => list ?? cached);
    }
  }

  useEffect(() => {
    setRuns(undefined);
    void load();
    return reconnected.on(() => {
      setLiveFailed(false);
      void load();
    });
  }, [cacheKey]);

  const merge = (run: TrainingRun) => setRuns((list) => mergeRun(list, run));

  // Follow each active run live; poll the list instead when the live connection failed.
  const mode = liveMode(runs, liveFailed, isOnline);
  const following = activeIds(runs).join(" ");
  useEffect(() => {
    if (mode !== "subscribe") return undefined;
    const stops = following.split(" ").map((runId) =>
      subscribe(TRAINING_RUN_WATCH, { runId }, (data) => merge(data.trainingRunUpdated), () => setLiveFailed(true)),
    );
    return () => stops.forEach((stop) => stop());
  }, [mode, following]);
  useEffect(() => {
    if (mode !== "poll") return undefined;
    const timer = setTimeout(() => void load(), POLL_MS);
    return () => clearTimeout(timer);
  }, [mode, runs]);

  // Say status changes (not every progress step) in the page's live region.
  useEffect(() => {
    if (!runs) return;
    const changes = statusChanges(previous.current, runs);
    previous.current = runs;
    if (changes.length) {
      setAnnouncement(changes.map(([id, status]) => {
        const run = runs.find((r) => r.id === id)!;
        return T.nowStatus(formatDateTime(run.createdAt), statusWord(status));
      }).join(" "));
    }
  }, [runs]);

  // After starting a run, focus moves to it.
  useEffect(() => {
    if (!focusRun || !runs?.some((r) => r.id === focusRun)) return;
    document.getElementById(runTitleId({ id: focusRun }))?.focus();
    setFocusRun(null);
  }, [focusRun, runs]);

  const task = detail.task;
  const rounds = task ? task.rounds.edges.map((e) => e.node) : [];
  const numbers = rounds.map((r) => r.number).sort((a, b) => b - a);
  const inUse = versionsInUse(rounds);
  return (
    <section aria-labelledby="page-title" class="training-page">
      <p class="crumbs"><a href={href(`/owner/${encodeURIComponent(code)}`)}>{T.backToTask}</a> <span aria-hidden="true">›</span></p>
      <h1 id="page-title" tabIndex={-1} dir="auto">{T.title(task?.name ?? code)}</h1>
      <TaskState status={task?.status} reviewNote={task?.reviewNote} />
      <p class="lead">{T.lead}</p>
      {!isOnline && <p class="note" role="note" data-testid="training-offline">{T.offline}</p>}
      {detail.error && !task && <p class="error" role="alert">{detail.error}</p>}

      {task && (
        <StartForm key={numbers.join(",")} taskCode={code} rounds={numbers} online={isOnline} blocked={!canStart(runs)}
          onStarted={(run) => { merge(run); setFocusRun(run.id); }} />
      )}

      <h2 id="training-runs-title">{T.listTitle}</h2>
      <p role="status" aria-live="polite" class="visually-hidden" data-testid="training-announcement">{announcement}</p>
      {mode === "poll" && <p class="hint">{T.liveFailed}</p>}
      {error && (isOnline || runs === undefined) && (
        <p class="error" role="alert" data-testid="training-error">
          {T.loadFailed(error)} <button type="button" onClick={() => void load()}>{T.retry}</button>
        </p>
      )}
      {runs === undefined ? (
        !error && <p role="status">{T.loading}</p>
      ) : runs.length === 0 ? (
        <p data-testid="training-none">{T.none}</p>
      ) : (
        <ul class="training-runs" aria-labelledby="training-runs-title" data-testid="training-runs">
          {runs.map((run) => (
            <RunCard key={run.id} run={run} taskCode={code} online={isOnline}
              versionInUse={inUse.has(runVersionKey(run))}
              onChanged={merge} onRoundOpened={() => void detail.reload()} />
          ))}
        </ul>
      )}
    </section>
  );
}
