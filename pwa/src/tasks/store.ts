/**
 * The task list: fetched from the API, cached in IndexedDB so that the app starts offline, and kept fresh live: once
 * loaded, every change to a task or its rounds (`taskListChanged`: created, edited, reviewed, hidden, a round opened
 * or closed) re-reads it, so no page keeps a stale list (e.g. "no open round" right after an owner opened one).
 */
import { describeError, request } from "../api/client";
import { TASKS } from "../api/documents";
import type { Task } from "../api/types";
import { subscribe } from "../api/ws";
import { currentToken, session } from "../auth/session";
import { currentLocale, onLocaleChange } from "../i18n/runtime";
import { observable } from "../lib/observable";
import { cacheGet, cachePut } from "../storage/db";
import { TASK_LIST_CHANGED } from "./documents";

export interface TasksState {
  tasks: Task[] | null;
  loading: boolean;
  error: string | null;
  fromCache: boolean;
}

export const tasksState = observable<TasksState>({ tasks: null, loading: false, error: null, fromCache: false });

const CACHE_KEY = "tasks";

let latest = 0; // the newest read wins: an older answer arriving late never replaces a newer list

export async function loadTasks(): Promise<void> {
  watchTaskList();
  const read = ++latest;
  tasksState.update((s) => ({ ...s, loading: true }));
  if (!tasksState.get().tasks) {
    const cached = await cacheGet<Task[]>(CACHE_KEY);
    if (cached) tasksState.update((s) => ({ ...s, tasks: cached, fromCache: true }));
  }
  try {
    const data = await request(TASKS, { first: 100, locale: currentLocale() });
    const tasks = data.tasks.edges.map((edge) => edge.node);
    if (read !== latest) return;
    tasksState.set({ tasks, loading: false, error: null, fromCache: false });
    await cachePut(CACHE_KEY, tasks);
  } catch (error) {
    if (read === latest) tasksState.update((s) => ({ ...s, loading: false, error: describeError(error) }));
  }
}

/** Whether the task list's live feed is on (shown as data-live on the task list page). */
export const taskListLive = observable(false);

let stopWatching: (() => void) | null = null;
let watchedToken: string | null = null;
let reloadTimer: ReturnType<typeof setTimeout> | null = null;

/** Re-read the list soon (a burst of changes, e.g. a round closed and the next one opened, reads once). */
export function reloadTasksSoon(): void {
  if (reloadTimer) clearTimeout(reloadTimer);
  reloadTimer = setTimeout(() => {
    reloadTimer = null;
    void loadTasks();
  }, 150);
}

/** Follow `taskListChanged` for the signed-in viewer (idempotent; a new session subscribes anew). */
function watchTaskList(): void {
  const token = currentToken();
  if (stopWatching && watchedToken === token) return;
  stopWatching?.();
  taskListLive.set(false);
  watchedToken = token;
  const stop: () => void = subscribe(
    TASK_LIST_CHANGED,
    {},
    ({ taskListChanged }) => {
      // LISTENING (first, and again after a reconnect): a change may have come before the feed was live.
      if (taskListChanged.change === "LISTENING") taskListLive.set(true);
      reloadTasksSoon();
    },
    () => {
      taskListLive.set(false);
      stop(); // refused or failed: subscribed again by the next read
      if (stopWatching === stop) stopWatching = null;
    },
  );
  stopWatching = stop;
}

// Another viewer sees another list (their hidden tasks and proposals): read it again for them.
session.subscribe(() => {
  if (stopWatching && watchedToken !== currentToken()) reloadTasksSoon();
});

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

// A task's instructions come in the UI locale: a new locale re-reads the list once one is shown.
onLocaleChange(() => {
  if (tasksState.get().tasks) reloadTasksSoon();
});
