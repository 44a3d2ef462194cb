/** The task list: fetched from the API, cached in IndexedDB so that the app starts offline. */
import { describeError, request } from "../api/client";
import { TASKS } from "../api/documents";
import type { Task } from "../api/types";
import { observable } from "../lib/observable";
import { cacheGet, cachePut } from "../storage/db";

export interface TasksState {
  tasks: Task[] | null;
  loading: boolean;
  error: string | null;
  fromCache: boolean;
}

export const tasksState = observable<TasksState>({ tasks: null, loading: false, error: null, fromCache: false });

const CACHE_KEY = "tasks";

export async function loadTasks(): Promise<void> {
  tasksState.update((s) => ({ ...s, loading: true }));
  if (!tasksState.get().tasks) {
    const cached = await cacheGet<Task[]>(CACHE_KEY);
    if (cached) tasksState.update((s) => ({ ...s, tasks: cached, fromCache: true }));
  }
  try {
    const data = await request(TASKS, { first: 100 });
    const tasks = data.tasks.edges.map((edge) => edge.node);
    tasksState.set({ tasks, loading: false, error: null, fromCache: false });
    await cachePut(CACHE_KEY, tasks);
  } catch (error) {
    tasksState.update((s) => ({ ...s, loading: false, error: describeError(error) }));
  }
}

export function taskByCode(code: string): Task | undefined {
  return tasksState.get().tasks?.find((task) => task.code === code);
}

/** Merge a live round update into the list (roundStats subscription). */
export function updateRound(taskCode: string, round: Task["currentRound"]): void {
  tasksState.update((s) => ({
    ...s,
    tasks: s.tasks?.map((task) => (task.code === taskCode && round && task.currentRound?.id === round.id ? { ...task, currentRound: round } : task)) ?? null,
  }));
}
