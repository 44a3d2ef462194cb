/** A list of the active tasks linking to one feature's page per task (validate, leaderboard, owner). */
import { useEffect } from "preact/hooks";
import { reconnected } from "../lib/network";
import { useObservable } from "../lib/observable";
import { href } from "../router";
import { localizeTask } from "../i18n/taskText";
import { loadTasks, tasksState } from "../tasks/store";
import { SHELL_TEXT as T } from "./text";

export function TaskPicker({ title, lead, pathFor, linkText }: {
  title: string;
  lead: string;
  pathFor: (code: string) => string;
  linkText: string;
}) {
  const state = useObservable(tasksState);
  useEffect(() => {
    void loadTasks();
    return reconnected.on(() => void loadTasks());
  }, []);
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title" tabIndex={-1}>{title}</h1>
      <p class="lead">{lead}</p>
      <div role="status" aria-live="polite" class="status-line">
        {state.loading && !state.tasks && T.loadingTasks}
        {state.error && (state.tasks ? T.savedList(state.error) : state.error)}
      </div>
      {state.tasks && state.tasks.length === 0 && <p>{T.noTasks}</p>}
      <ul class="task-grid">
        {state.tasks?.map((task) => (
          <li class="card task-card" key={task.id} data-task={task.code}>
            <h2 dir="auto">{localizeTask(task).name}</h2>
            <p dir="auto">{task.description}</p>
            <p><a href={href(pathFor(task.code))}>{linkText}<span class="visually-hidden"> — {localizeTask(task).name}</span></a></p>
          </li>
        ))}
      </ul>
    </section>
  );
}
