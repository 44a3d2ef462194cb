/** The admin pages' GraphQL documents (checked against schema.graphql by documents.test.ts). */
import type {
  AdminUsersQuery, AdminUsersQueryVariables, SetUserRoleMutation, SetUserRoleMutationVariables,
  SetUserDisabledMutation, SetUserDisabledMutationVariables, ResetUserSessionsMutation,
  ResetUserSessionsMutationVariables, AdminIssueResetMutation, AdminIssueResetMutationVariables, PendingTasksQuery,
  PendingTasksQueryVariables, ApproveTaskMutation, ApproveTaskMutationVariables, RejectTaskMutation,
  RejectTaskMutationVariables, AdminModelsQuery, AdminModelsQueryVariables, TakeDownModelMutation,
  TakeDownModelMutationVariables, AdminTargetModelsQuery, AdminTargetModelsQueryVariables, ShareTargetModelMutation,
  ShareTargetModelMutationVariables, AuditLogQuery, AuditLogQueryVariables,
} from "../api/generated/types";
import type { Document } from "../api/documents";
import type { ErrorResult } from "../api/types";

const doc = <TData, TVariables = Record<string, never>>(source: string) => source as Document<TData, TVariables>;

const ERROR_FIELDS = "__typename ... on Error { code message } ... on InputError { fields { field message } }";

export type UserRole = "USER" | "ADMIN";
export type AuditAction =
  | "ROLE_CHANGED"
  | "USER_DISABLED"
  | "USER_ENABLED"
  | "SESSIONS_RESET"
  | "PASSWORD_RESET_ISSUED"
  | "TASK_APPROVED"
  | "TASK_REJECTED"
  | "TASK_VISIBILITY"
  | "MODEL_TAKEN_DOWN"
  | "TARGET_SHARED"
  | "TARGET_UNSHARED"
  | "LLM_ENDPOINT_REGISTERED"
  | "LLM_ENDPOINT_UPDATED"
  | "LLM_ENDPOINT_REMOVED"
  | "TRAINING_GATE_OVERRIDDEN"
  | "ACCOUNT_DELETED";

export interface PageInfo {
  hasNextPage: boolean;
  endCursor: string | null;
}

export interface Connection<T> {
  edges: { node: T }[];
  pageInfo: PageInfo;
}

export interface AdminUser {
  id: string;
  username: string;
  email: string | null;
  emailVerified: boolean;
  role: UserRole;
  disabled: boolean;
  disabledReason: string | null;
  createdAt: string;
  lastSeenAt: string | null;
}

const USER_FIELDS = "id username email emailVerified role disabled disabledReason createdAt lastSeenAt";

export const ADMIN_USERS = doc<AdminUsersQuery, AdminUsersQueryVariables>(
  `query AdminUsers($search: String, $role: UserRole, $disabled: Boolean, $after: String) {
    adminUsers(search: $search, role: $role, disabled: $disabled, first: 20, after: $after) {
      edges { node { ${USER_FIELDS} } } pageInfo { hasNextPage endCursor } } }`,
);

export const SET_USER_ROLE = doc<SetUserRoleMutation, SetUserRoleMutationVariables>(
  `mutation SetUserRole($userId: ID!, $role: UserRole!) { setUserRole(userId: $userId, role: $role) { ${ERROR_FIELDS}
    ... on UserRoleSet { user { ${USER_FIELDS} } } } }`,
);

export const SET_USER_DISABLED = doc<SetUserDisabledMutation, SetUserDisabledMutationVariables>(
  `mutation SetUserDisabled($userId: ID!, $disabled: Boolean!, $reason: String!) {
    setUserDisabled(userId: $userId, disabled: $disabled, reason: $reason) { ${ERROR_FIELDS}
    ... on UserDisabledSet { user { ${USER_FIELDS} } } } }`,
);

export const RESET_USER_SESSIONS = doc<ResetUserSessionsMutation, ResetUserSessionsMutationVariables>(
  `mutation ResetUserSessions($userId: ID!) { resetUserSessions(userId: $userId) { ${ERROR_FIELDS}
    ... on UserSessionsReset { user { ${USER_FIELDS} } } } }`,
);

export type IssueResetResult = { __typename: "PasswordResetIssued"; link: string; expiresAt: string } | ErrorResult;

export const ISSUE_RESET = doc<AdminIssueResetMutation, AdminIssueResetMutationVariables>(
  `mutation AdminIssueReset($username: String!) { adminIssuePasswordReset(input: {username: $username}) { ${ERROR_FIELDS}
    ... on PasswordResetIssued { link expiresAt } } }`,
);

export interface PendingTask {
  code: string;
  name: string;
  description: string;
  owners: string[];
  createdAt: string;
}

export const PENDING_TASKS = doc<PendingTasksQuery, PendingTasksQueryVariables>(
  `query PendingTasks { pendingTasks { code name description owners createdAt } }`,
);

export const APPROVE_TASK = doc<ApproveTaskMutation, ApproveTaskMutationVariables>(
  `mutation ApproveTask($code: String!, $note: String!) { approveTask(taskCode: $code, note: $note) { ${ERROR_FIELDS} } }`,
);

export const REJECT_TASK = doc<RejectTaskMutation, RejectTaskMutationVariables>(
  `mutation RejectTask($code: String!, $note: String!) { rejectTask(taskCode: $code, note: $note) { ${ERROR_FIELDS} } }`,
);

export interface AdminModel {
  id: string;
  name: string;
  taskCode: string;
  owner: string;
  status: string;
  published: boolean;
  takenDown: boolean;
  takenDownReason: string | null;
  createdAt: string;
}

const MODEL_FIELDS = "id name taskCode owner status published takenDown takenDownReason createdAt";

export const ADMIN_MODELS = doc<AdminModelsQuery, AdminModelsQueryVariables>(
  `query AdminModels($taskCode: String, $after: String) { adminModels(taskCode: $taskCode, first: 20, after: $after) {
    edges { node { ${MODEL_FIELDS} } } pageInfo { hasNextPage endCursor } } }`,
);

export const TAKE_DOWN_MODEL = doc<TakeDownModelMutation, TakeDownModelMutationVariables>(
  `mutation TakeDownModel($modelId: ID!, $reason: String!) { takeDownModel(modelId: $modelId, reason: $reason) {
    ${ERROR_FIELDS} ... on ModelTakenDown { model { takenDownReason } } } }`,
);

/** A model the target Triton serves, as the admins' "Target models" section lists it. */
export interface AdminTargetModel {
  name: string;
  versions: string[];
  ready: boolean;
  kind: string | null;
  builtinTask: string | null;
  shared: boolean;
}

export const ADMIN_TARGET_MODELS = doc<AdminTargetModelsQuery, AdminTargetModelsQueryVariables>(
  `query AdminTargetModels { servedTargetModels { targets { name versions ready kind builtinTask shared } } }`,
);

export const SHARE_TARGET_MODEL = doc<ShareTargetModelMutation, ShareTargetModelMutationVariables>(
  `mutation ShareTargetModel($name: String!, $shared: Boolean!) { shareTargetModel(name: $name, shared: $shared) {
    ${ERROR_FIELDS} ... on TargetModelShared { name shared } } }`,
);

export interface AuditEntry {
  id: string;
  actor: string;
  action: AuditAction;
  targetType: string;
  targetLabel: string;
  reason: string;
  createdAt: string;
}

export const AUDIT_LOG = doc<AuditLogQuery, AuditLogQueryVariables>(
  `query AuditLog($action: AuditAction, $actor: String, $after: String) {
    auditLog(action: $action, actor: $actor, first: 20, after: $after) {
      edges { node { id actor action targetType targetLabel reason createdAt } } pageInfo { hasNextPage endCursor } } }`,
);

export const ADMIN_DOCUMENTS = {
  ADMIN_USERS,
  SET_USER_ROLE,
  SET_USER_DISABLED,
  RESET_USER_SESSIONS,
  ISSUE_RESET,
  PENDING_TASKS,
  APPROVE_TASK,
  REJECT_TASK,
  ADMIN_MODELS,
  TAKE_DOWN_MODEL,
  ADMIN_TARGET_MODELS,
  SHARE_TARGET_MODEL,
  AUDIT_LOG,
};
