/** The inbox's GraphQL documents (checked against schema.graphql by documents.test.ts). */
import type {
  InboxQuery, InboxQueryVariables, UnreadCountQuery, UnreadCountQueryVariables, NotificationReceivedSubscription,
  NotificationReceivedSubscriptionVariables, MarkReadMutation, MarkReadMutationVariables,
  NotificationPreferencesQuery, NotificationPreferencesQueryVariables, SetNotificationPreferencesMutation,
  SetNotificationPreferencesMutationVariables,
} from "../api/generated/types";
import type { Document } from "../api/documents";

const doc = <TData, TVariables = Record<string, never>>(source: string) => source as Document<TData, TVariables>;

export type NotificationKind =
  | "MODEL_DEPLOYED" | "MODEL_SCORED" | "MODEL_FAILED" | "MODEL_TAKEN_DOWN" | "EXAMPLE_VALIDATED" | "EXAMPLE_REJECTED"
  | "BADGE_EARNED" | "TASK_APPROVED" | "TASK_REJECTED";

export interface Notification {
  id: string;
  kind: NotificationKind;
  title: string;
  body: string;
  link: string;
  createdAt: string;
  read: boolean;
}

export interface Preferences {
  emailKinds: NotificationKind[];
  emailAvailable: boolean;
}

const FIELDS = "id kind title body link createdAt read";
const ERROR_FIELDS = "__typename ... on Error { code message }";

export const INBOX = doc<InboxQuery, InboxQueryVariables>(
  `query Inbox($first: Int!, $after: String, $unreadOnly: Boolean!) {
    notifications(first: $first, after: $after, unreadOnly: $unreadOnly) {
      edges { node { ${FIELDS} } } pageInfo { hasNextPage endCursor } }
    unreadNotificationCount }`,
);

export const UNREAD_COUNT = doc<UnreadCountQuery, UnreadCountQueryVariables>(`query UnreadCount { unreadNotificationCount }`);

export const NOTIFICATION_RECEIVED = doc<NotificationReceivedSubscription, NotificationReceivedSubscriptionVariables>(
  `subscription NotificationReceived($since: ID) { notificationReceived(since: $since) { ${FIELDS} } }`,
);

export type MarkResult =
  | { __typename: "NotificationsMarked"; markedIds: string[]; unreadCount: number }
  | { __typename: string; code: string; message: string };

export const MARK_READ = doc<MarkReadMutation, MarkReadMutationVariables>(
  `mutation MarkRead($ids: [ID!], $all: Boolean!) { markNotificationsRead(ids: $ids, all: $all) { ${ERROR_FIELDS}
    ... on NotificationsMarked { markedIds unreadCount } } }`,
);

export const PREFERENCES = doc<NotificationPreferencesQuery, NotificationPreferencesQueryVariables>(
  `query NotificationPreferences { notificationPreferences { emailKinds emailAvailable } }`,
);

export type SavePreferencesResult =
  | { __typename: "NotificationPreferencesSaved"; preferences: Preferences }
  | { __typename: string; code: string; message: string };

export const SET_PREFERENCES = doc<SetNotificationPreferencesMutation, SetNotificationPreferencesMutationVariables>(
  `mutation SetNotificationPreferences($emailKinds: [NotificationKind!]!) { setNotificationPreferences(emailKinds: $emailKinds) {
    ${ERROR_FIELDS} ... on NotificationPreferencesSaved { preferences { emailKinds emailAvailable } } } }`,
);

export const INBOX_DOCUMENTS = { INBOX, UNREAD_COUNT, NOTIFICATION_RECEIVED, MARK_READ, PREFERENCES, SET_PREFERENCES };
