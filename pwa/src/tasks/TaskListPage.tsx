/** The task list: each active task with its current round's numbers. */
import { useEffect } from "preact/hooks";
import { reconnected } from "../lib/network";
import { useObservable } from "../lib/observable";
import { href } from "../router";
import { formatNumber } from "../i18n/format";
import { localizeTask } from "../i18n/taskText";
import { SHELL_TEXT as T } from "../ui/text";
import { formatRate } from "./config";
import { statusNote } from "./status";
import { loadTasks, taskListLive, tasksState } from "./store";

export function TaskListPage() {
  const state = useObservable(tasksState);
  const live = useObservable(taskListLive);
  useEffect(() => {
    void loadTasks();
    return reconnected.on(() => void loadTasks());
  }, []);

  return (
    <section aria-labelledby="page-title" data-live={live ? "live" : "connecting"}>
      <h1 id="page-title" tabIndex={-1}>{T.nav.tasks}</h1>
      <p class="lead">{T.tasksLead}</p>
      <div role="status" aria-live="polite" class="status-line">
        {state.loading && !state.tasks && T.loadingTasks}
        {state.error && (state.tasks ? T.savedList(state.error) : state.error)}
      </div>
      {state.tasks && state.tasks.length === 0 && <p>{T.noTasks}</p>}
      <ul class="task-grid">
        {state.tasks?.map((task) => {
          const round = task.currentRound;
          const note = statusNote(task.status);
          return (
            <li class="card task-card" key={task.id} data-task={task.code} data-status={task.status}>
              <h2>
                <a href={href(`/tasks/${encodeURIComponent(task.code)}`)} dir="auto">{localizeTask(task).name}</a>
                {note && <> <span class="badge badge-task-status">{note.badge}</span></>}
              </h2>
              {note && <p class="hint">{note.hint}{task.reviewNote ? <> {T.reviewNote(task.reviewNote)}</> : null}</p>}
              <p dir="auto">{task.description}</p>
              {round ? (
                <dl class="stats">
                  <div><dt>{T.statRound}</dt><dd>{formatNumber(round.number)}</dd></div>
                  <div><dt>{T.statExamples}</dt><dd>{formatNumber(round.totalCollected)}</dd></div>
                  <div><dt><abbr title={T.merTitle}>MER</abbr></dt><dd>{formatRate(round.mer)}</dd></div>
                  <div><dt><abbr title={T.vmerTitle}>vMER</abbr></dt><dd>{formatRate(round.vmer)}</dd></div>
                </dl>
              ) : (
                <p class="hint">{T.noRoundOpen}</p>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
