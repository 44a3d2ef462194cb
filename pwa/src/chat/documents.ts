/** The chat's GraphQL documents (checked against schema.graphql by chat/documents.test.ts). */
import type {
  ConversationQuery, ConversationQueryVariables, SendMessageMutation, SendMessageMutationVariables, StopReplyMutation,
  StopReplyMutationVariables, RetryReplyMutation, RetryReplyMutationVariables, ReplyStreamSubscription,
  ReplyStreamSubscriptionVariables, SubmitConversationMutation, SubmitConversationMutationVariables,
  ConversationExampleSubscription, ConversationExampleSubscriptionVariables,
} from "../api/generated/types";
import type { Document } from "../api/documents";
import type { Example, Verdict } from "../api/types";
import type { Conversation, Turn } from "./stream";

const doc = <TData, TVariables = Record<string, never>>(source: string) => source as Document<TData, TVariables>;

const ERROR_FIELDS = `__typename ... on Error { code message } ... on InputError { fields { field message } }`;
const TURN_FIELDS = `id position message reply status error modelName modelVersion judgeScore attempts { reply status error }`;
const CONVERSATION_FIELDS = `id contextId messagesLeft exampleId turns { ${TURN_FIELDS} }`;

export interface SendMessageInput {
  roundId: string;
  contextId: string;
  conversationId: string | null;
  clientId: string;
  message: string;
}

export interface MessageSent {
  __typename: "MessageSent";
  duplicate: boolean;
  conversation: Conversation;
  turn: Turn;
}

export interface ReplyChanged {
  __typename: "ReplyChanged";
  turn: Turn;
}

export interface SubmitConversationInput {
  conversationId: string;
  clientId: string;
  categories: string[];
  fields: Record<string, unknown> | null;
  explanation: string;
  timeSpentMs: number | null;
  modelFailed: boolean | null;
  /** The conversation opened with this suggestion (pwa/src/suggest): the example records it. */
  suggestionId?: string | null;
}

export type SubmittedExample = Pick<Example, "id" | "verdict" | "modelOutput" | "fooled" | "status" | "pendingReason">;

export interface ConversationSubmitted {
  __typename: "ExampleSubmitted";
  verdict: Verdict;
  message: string;
  duplicate: boolean;
  example: SubmittedExample | null;
}

const SUBMITTED_EXAMPLE = "id verdict modelOutput fooled status pendingReason";

export const CONVERSATION = doc<ConversationQuery, ConversationQueryVariables>(
  `query Conversation($id: ID!) { conversation(id: $id) { ${CONVERSATION_FIELDS} } }`,
);

export const SEND_MESSAGE = doc<SendMessageMutation, SendMessageMutationVariables>(
  `mutation SendMessage($input: SendMessageInput!) { sendMessage(input: $input) { ${ERROR_FIELDS}
    ... on MessageSent { duplicate conversation { ${CONVERSATION_FIELDS} } turn { ${TURN_FIELDS} } } } }`,
);

export const STOP_REPLY = doc<StopReplyMutation, StopReplyMutationVariables>(
  `mutation StopReply($turnId: ID!) { stopReply(turnId: $turnId) { ${ERROR_FIELDS} ... on ReplyChanged { turn { ${TURN_FIELDS} } } } }`,
);

export const RETRY_REPLY = doc<RetryReplyMutation, RetryReplyMutationVariables>(
  `mutation RetryReply($turnId: ID!) { retryReply(turnId: $turnId) { ${ERROR_FIELDS} ... on ReplyChanged { turn { ${TURN_FIELDS} } } } }`,
);

export const REPLY_STREAM = doc<ReplyStreamSubscription, ReplyStreamSubscriptionVariables>(
  `subscription ReplyStream($turnId: ID!) { replyStream(turnId: $turnId) { turnId text done status error judgeScore truncated } }`,
);

export const SUBMIT_CONVERSATION = doc<SubmitConversationMutation, SubmitConversationMutationVariables>(
  `mutation SubmitConversation($input: SubmitConversationInput!) { submitConversation(input: $input) { ${ERROR_FIELDS}
    ... on ExampleSubmitted { verdict message duplicate example { ${SUBMITTED_EXAMPLE} } } } }`,
);

/** A submitted conversation's example while its verdict is pending (the judge was away). */
export const CONVERSATION_EXAMPLE = doc<ConversationExampleSubscription, ConversationExampleSubscriptionVariables>(
  `subscription ConversationExample($exampleId: ID!) { exampleUpdated(exampleId: $exampleId) { ${SUBMITTED_EXAMPLE} } }`,
);

export const CHAT_DOCUMENTS = { CONVERSATION, SEND_MESSAGE, STOP_REPLY, RETRY_REPLY, REPLY_STREAM, SUBMIT_CONVERSATION, CONVERSATION_EXAMPLE };
