/** The task settings page's GraphQL documents (checked against schema.graphql by documents.test.ts). */
import type {
  TaskSettingsQuery, TaskSettingsQueryVariables, UpdateTaskSettingsMutation, UpdateTaskSettingsMutationVariables,
  AddTaskOwnerMutation, AddTaskOwnerMutationVariables, RemoveTaskOwnerMutation, RemoveTaskOwnerMutationVariables,
  SetTaskVisibilityMutation, SetTaskVisibilityMutationVariables,
} from "../../api/generated/types";
import type { Document } from "../../api/documents";
import type { ErrorResult } from "../../api/types";

const doc = <TData, TVariables = Record<string, never>>(source: string) => source as Document<TData, TVariables>;

const ERROR_FIELDS = `__typename ... on Error { code message } ... on InputError { fields { field message } }`;

export type TaskStatus = "PROPOSED" | "REJECTED" | "PUBLIC" | "HIDDEN" | "ARCHIVED";
export type Visibility = "PUBLIC" | "HIDDEN" | "ARCHIVED";

export interface ConfigVersion {
  version: number;
  createdAt: string;
  config: Record<string, unknown>;
}

export interface RoundVersion {
  number: number;
  configVersion: number;
  endAt: string | null;
}

export interface TaskSettings {
  id: string;
  code: string;
  name: string;
  description: string;
  instructions: string;
  instructionsHtml: string;
  status: TaskStatus;
  reviewNote: string | null;
  owners: string[];
  viewerIsOwner: boolean;
  config: Record<string, unknown>;
  configVersion: number;
  configVersions: ConfigVersion[];
  currentRound: RoundVersion | null;
  rounds: { edges: { node: RoundVersion }[] };
}

const SETTINGS_FIELDS = `id code name description instructions instructionsHtml status reviewNote owners viewerIsOwner config
  configVersion configVersions { version createdAt config } currentRound { number configVersion endAt }
  rounds(first: 100) { edges { node { number configVersion endAt } } }`;

export const TASK_SETTINGS = doc<TaskSettingsQuery, TaskSettingsQueryVariables>(
  `query TaskSettings($code: String!) { task(code: $code) { ${SETTINGS_FIELDS} } }`,
);

export type UpdateTaskResult = { __typename: "TaskUpdated"; task: TaskSettings } | ErrorResult;

export interface UpdateTaskInput {
  taskCode: string;
  name?: string;
  description?: string;
  instructions?: string;
  config?: unknown;
}

export const UPDATE_TASK = doc<UpdateTaskSettingsMutation, UpdateTaskSettingsMutationVariables>(
  `mutation UpdateTaskSettings($input: UpdateTaskInput!) { updateTask(input: $input) { ${ERROR_FIELDS}
    ... on TaskUpdated { task { ${SETTINGS_FIELDS} } } } }`,
);

export type AddOwnerResult = { __typename: "TaskOwnerAdded"; taskCode: string; owners: string[] } | ErrorResult;
export type RemoveOwnerResult = { __typename: "TaskOwnerRemoved"; taskCode: string; owners: string[] } | ErrorResult;

export const ADD_TASK_OWNER = doc<AddTaskOwnerMutation, AddTaskOwnerMutationVariables>(
  `mutation AddTaskOwner($taskCode: String!, $username: String!) { addTaskOwner(taskCode: $taskCode, username: $username) {
    ${ERROR_FIELDS} ... on TaskOwnerAdded { taskCode owners } } }`,
);

export const REMOVE_TASK_OWNER = doc<RemoveTaskOwnerMutation, RemoveTaskOwnerMutationVariables>(
  `mutation RemoveTaskOwner($taskCode: String!, $username: String!) { removeTaskOwner(taskCode: $taskCode, username: $username) {
    ${ERROR_FIELDS} ... on TaskOwnerRemoved { taskCode owners } } }`,
);

export type VisibilityResult = { __typename: "TaskVisibilityChanged"; task: TaskSettings } | ErrorResult;

export const SET_TASK_VISIBILITY = doc<SetTaskVisibilityMutation, SetTaskVisibilityMutationVariables>(
  `mutation SetTaskVisibility($taskCode: String!, $visibility: TaskVisibility!) {
    setTaskVisibility(taskCode: $taskCode, visibility: $visibility) {
      ${ERROR_FIELDS} ... on TaskVisibilityChanged { task { ${SETTINGS_FIELDS} } } } }`,
);

export const SETTINGS_DOCUMENTS = { TASK_SETTINGS, UPDATE_TASK, ADD_TASK_OWNER, REMOVE_TASK_OWNER, SET_TASK_VISIBILITY };
