/** The task list: each active task with its current round's numbers. */
import { useEffect } from "preact/hooks";
import { reconnected } from "../lib/network";
import { useObservable } from "../lib/observable";
import { href } from "../router";
import { formatRate } from "./config";
import { statusNote } from "./status";
import { loadTasks, tasksState } from "./store";

export function TaskListPage() {
  const state = useObservable(tasksState);
  useEffect(() => {
    void loadTasks();
    return reconnected.on(() => void loadTasks());
  }, []);

  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title" tabIndex={-1}>Tasks</h1>
      <p class="lead">Pick a task, read the context, and write an example the model gets wrong.</p>
      <div role="status" aria-live="polite" class="status-line">
        {state.loading && !state.tasks && "Loading tasks…"}
        {state.error && (state.tasks ? `Showing the saved list: ${state.error}` : state.error)}
      </div>
      {state.tasks && state.tasks.length === 0 && <p>No tasks are open yet.</p>}
      <ul class="task-grid">
        {state.tasks?.map((task) => {
          const round = task.currentRound;
          const note = statusNote(task.status);
          return (
            <li class="card task-card" key={task.id} data-task={task.code} data-status={task.status}>
              <h2>
                <a href={href(`/tasks/${encodeURIComponent(task.code)}`)}>{task.name}</a>
                {note && <> <span class="badge badge-task-status">{note.badge}</span></>}
              </h2>
              {note && <p class="hint">{note.hint}{task.reviewNote ? ` “${task.reviewNote}”` : ""}</p>}
              <p>{task.description}</p>
              {round ? (
                <dl class="stats">
                  <div><dt>Round</dt><dd>{round.number}</dd></div>
                  <div><dt>Examples</dt><dd>{round.totalCollected}</dd></div>
                  <div><dt><abbr title="Model error rate">MER</abbr></dt><dd>{formatRate(round.mer)}</dd></div>
                  <div><dt><abbr title="Validated model error rate">vMER</abbr></dt><dd>{formatRate(round.vmer)}</dd></div>
                </dl>
              ) : (
                <p class="hint">No round is open.</p>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
