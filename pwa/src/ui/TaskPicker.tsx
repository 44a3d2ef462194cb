/** A list of the active tasks linking to one feature's page per task (validate, leaderboard, owner). */
import { useEffect } from "preact/hooks";
import { reconnected } from "../lib/network";
import { useObservable } from "../lib/observable";
import { href } from "../router";
import { loadTasks, tasksState } from "../tasks/store";

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
        {state.loading && !state.tasks && "Loading tasks…"}
        {state.error && (state.tasks ? `Showing the saved list: ${state.error}` : state.error)}
      </div>
      {state.tasks && state.tasks.length === 0 && <p>No tasks are open yet.</p>}
      <ul class="task-grid">
        {state.tasks?.map((task) => (
          <li class="card task-card" key={task.id} data-task={task.code}>
            <h2>{task.name}</h2>
            <p>{task.description}</p>
            <p><a href={href(pathFor(task.code))}>{linkText}<span class="visually-hidden"> — {task.name}</span></a></p>
          </li>
        ))}
      </ul>
    </section>
  );
}
