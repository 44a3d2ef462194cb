/** The task creation page's GraphQL documents (checked against schema.graphql by documents.test.ts). */
import type {
  ServedTargetModelsQuery, ServedTargetModelsQueryVariables, CreateTaskFromFormMutation,
  CreateTaskFromFormMutationVariables, OpenFirstRoundMutation, OpenFirstRoundMutationVariables,
} from "../../api/generated/types";
import type { Document } from "../../api/documents";
import type { ErrorResult } from "../../api/types";

const doc = <TData, TVariables = Record<string, never>>(source: string) => source as Document<TData, TVariables>;

const ERROR_FIELDS = `__typename ... on Error { code message } ... on InputError { fields { field message } }`;

export interface ServedModel {
  name: string;
  versions: string[];
  ready: boolean;
  kind: string | null;
  task: string | null;
  inputs: string[];
  labels: string[];
  heldoutAccuracy: number | null;
  heldoutF1: number | null;
  builtAt: string | null;
  builtinTask: string | null;
  /** An admin shared this built-in model with every task owner. */
  shared: boolean;
  usable: boolean;
  /** Why the viewer cannot pick it now (another task's built-in model, or no version ready); null when it can. */
  unusableReason: string | null;
}

/** A published, evaluated submission of the task: a round names it by `modelId`. */
export interface SubmissionTarget {
  modelId: string;
  name: string;
  status: string;
  readiness: { ready: boolean };
}

export interface ServedTargets {
  targets: ServedModel[];
  submissions: SubmissionTarget[];
}

export const SERVED_TARGET_MODELS = doc<ServedTargetModelsQuery, ServedTargetModelsQueryVariables>(
  `query ServedTargetModels($kind: String, $taskCode: String) { servedTargetModels(kind: $kind, taskCode: $taskCode) {
    targets { name versions ready kind task inputs labels heldoutAccuracy heldoutF1 builtAt builtinTask shared usable unusableReason }
    submissions { modelId name status readiness { ready } } } }`,
);

export type CreateTaskResult =
  | { __typename: "TaskCreated"; task: { id: string; code: string; name: string; status: string } }
  | ErrorResult;

export const CREATE_TASK_FULL = doc<CreateTaskFromFormMutation, CreateTaskFromFormMutationVariables>(
  `mutation CreateTaskFromForm($input: CreateTaskInput!) { createTask(input: $input) { ${ERROR_FIELDS}
    ... on TaskCreated { task { id code name status } } } }`,
);

export type CreateRoundResult = { __typename: "RoundCreated"; round: { id: string; number: number } } | ErrorResult;

export const OPEN_FIRST_ROUND = doc<OpenFirstRoundMutation, OpenFirstRoundMutationVariables>(
  `mutation OpenFirstRound($input: CreateRoundInput!) { createRound(input: $input) { ${ERROR_FIELDS}
    ... on RoundCreated { round { id number } } } }`,
);

export const CREATE_DOCUMENTS = { SERVED_TARGET_MODELS, CREATE_TASK_FULL, OPEN_FIRST_ROUND };
