/** One task with the viewer's rights and its rounds; cached per user in IndexedDB for offline starts. */
import { useEffect, useState } from "preact/hooks";
import { describeError, request } from "../api/client";
import { TASK_DETAIL } from "../api/documents";
import type { TaskDetail } from "../api/types";
import { reconnected } from "../lib/network";
import { cacheGet, cachePut } from "../storage/db";

export interface TaskDetailState {
  task: TaskDetail | null;
  loading: boolean;
  error: string | null;
  missing: boolean;
}

export function useTaskDetail(code: string, username: string): TaskDetailState & { reload: () => Promise<void> } {
  const [state, setState] = useState<TaskDetailState>({ task: null, loading: true, error: null, missing: false });
  const key = `taskDetail/${username}/${code}`;

  async function reload() {
    setState((s) => ({ ...s, loading: true }));
    try {
      const { task } = await request(TASK_DETAIL, { code });
      setState({ task, loading: false, error: null, missing: !task });
      if (task) await cachePut(key, task);
    } catch (error) {
      const cached = await cacheGet<TaskDetail>(key);
      setState((s) => ({ task: s.task ?? cached ?? null, loading: false, error: describeError(error), missing: false }));
    }
  }

  useEffect(() => {
    void reload();
    return reconnected.on(() => void reload());
  }, [key]);
  return { ...state, reload };
}
