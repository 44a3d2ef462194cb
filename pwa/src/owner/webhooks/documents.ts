/** The owners' webhook documents (checked against schema.graphql by documents.test.ts). */
import type {
  WebhooksQuery, WebhooksQueryVariables, WebhookDeliveriesQuery, WebhookDeliveriesQueryVariables,
  CreateWebhookMutation, CreateWebhookMutationVariables, UpdateWebhookMutation, UpdateWebhookMutationVariables,
  DeleteWebhookMutation, DeleteWebhookMutationVariables, RotateWebhookSecretMutation,
  RotateWebhookSecretMutationVariables,
} from "../../api/generated/types";
import type { Document } from "../../api/documents";
import type { ErrorResult } from "../../api/types";

const doc = <TData, TVariables = Record<string, never>>(source: string) => source as Document<TData, TVariables>;

const ERROR_FIELDS = `__typename ... on Error { code message } ... on InputError { fields { field message } }`;

/** The enum WebhookEventType of schema.graphql, in its order. */
export const WEBHOOK_EVENTS = [
  "EXAMPLE_CREATED", "EXAMPLE_VALIDATED", "EXAMPLE_REJECTED", "MODEL_DEPLOYED", "MODEL_SCORED", "MODEL_FAILED", "ROUND_OPENED", "ROUND_CLOSED",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];
export type DeliveryStatus = "PENDING" | "DELIVERED" | "FAILED" | "CANCELLED";

export interface Webhook {
  id: string;
  url: string;
  events: WebhookEventType[];
  description: string;
  enabled: boolean;
  consecutiveFailures: number;
  disabledReason: string | null;
  disabledAt: string | null;
  previousSecretValidUntil: string | null;
  createdAt: string;
}

export interface WebhookAttempt {
  number: number;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  at: string;
}

export interface WebhookDelivery {
  id: string;
  eventId: string;
  event: WebhookEventType;
  status: DeliveryStatus;
  attemptCount: number;
  attempts: WebhookAttempt[];
  nextAttemptAt: string | null;
  createdAt: string;
  deliveredAt: string | null;
}

export interface DeliveryPage {
  edges: { cursor: string; node: WebhookDelivery }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

const HOOK_FIELDS = `id url events description enabled consecutiveFailures disabledReason disabledAt previousSecretValidUntil createdAt`;
const DELIVERY_FIELDS = `id eventId event status attemptCount nextAttemptAt createdAt deliveredAt
  attempts { number statusCode error durationMs at }`;

export type CreateResult = { __typename: "WebhookCreated"; webhook: Webhook; secret: string } | ErrorResult;
export type SaveResult = { __typename: "WebhookSaved"; webhook: Webhook } | ErrorResult;
export type DeleteResult = { __typename: "WebhookDeleted"; id: string } | ErrorResult;
export type RotateResult =
  | { __typename: "WebhookSecretRotated"; webhook: Webhook; secret: string; previousSecretValidUntil: string | null }
  | ErrorResult;

export const WEBHOOKS = doc<WebhooksQuery, WebhooksQueryVariables>(
  `query Webhooks($taskCode: String!) { webhooks(taskCode: $taskCode) { ${HOOK_FIELDS} } }`,
);

export const WEBHOOK_DELIVERIES = doc<WebhookDeliveriesQuery, WebhookDeliveriesQueryVariables>(
  `query WebhookDeliveries($webhookId: ID!, $first: Int!, $after: String) {
    webhookDeliveries(webhookId: $webhookId, first: $first, after: $after) {
      edges { cursor node { ${DELIVERY_FIELDS} } } pageInfo { hasNextPage endCursor } } }`,
);

export const CREATE_WEBHOOK = doc<CreateWebhookMutation, CreateWebhookMutationVariables>(
  `mutation CreateWebhook($taskCode: String!, $url: String!, $events: [WebhookEventType!]!, $description: String!) {
    createWebhook(taskCode: $taskCode, url: $url, events: $events, description: $description) {
      ${ERROR_FIELDS} ... on WebhookCreated { secret webhook { ${HOOK_FIELDS} } } } }`,
);

export const UPDATE_WEBHOOK = doc<UpdateWebhookMutation, UpdateWebhookMutationVariables>(
  `mutation UpdateWebhook($webhookId: ID!, $enabled: Boolean) { updateWebhook(webhookId: $webhookId, enabled: $enabled) {
    ${ERROR_FIELDS} ... on WebhookSaved { webhook { ${HOOK_FIELDS} } } } }`,
);

export const DELETE_WEBHOOK = doc<DeleteWebhookMutation, DeleteWebhookMutationVariables>(
  `mutation DeleteWebhook($webhookId: ID!) { deleteWebhook(webhookId: $webhookId) { ${ERROR_FIELDS} ... on WebhookDeleted { id } } }`,
);

export const ROTATE_WEBHOOK_SECRET = doc<RotateWebhookSecretMutation, RotateWebhookSecretMutationVariables>(
  `mutation RotateWebhookSecret($webhookId: ID!, $keepPreviousHours: Int!) {
    rotateWebhookSecret(webhookId: $webhookId, keepPreviousHours: $keepPreviousHours) {
      ${ERROR_FIELDS} ... on WebhookSecretRotated { secret previousSecretValidUntil webhook { ${HOOK_FIELDS} } } } }`,
);

export const WEBHOOK_DOCUMENTS = { WEBHOOKS, WEBHOOK_DELIVERIES, CREATE_WEBHOOK, UPDATE_WEBHOOK, DELETE_WEBHOOK, ROTATE_WEBHOOK_SECRET };
