/** The task list's live feed (checked against schema.graphql by validate/documents.test.ts). */
import type { TaskListChangedSubscription, TaskListChangedSubscriptionVariables } from "../api/generated/types";
import type { Document } from "../api/documents";

const doc = <TData, TVariables = Record<string, never>>(source: string) => source as Document<TData, TVariables>;

/** LISTENING once live, then a change to some task or its rounds: the list is re-read. */
export const TASK_LIST_CHANGED = doc<TaskListChangedSubscription, TaskListChangedSubscriptionVariables>(
  `subscription TaskListChanged { taskListChanged { change task { code } } }`,
);

export const TASKS_DOCUMENTS = { TASK_LIST_CHANGED };
