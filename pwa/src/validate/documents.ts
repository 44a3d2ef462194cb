/** The validate page's own documents (checked against schema.graphql by documents.test.ts). */
import type {
  ValidationQueueSubscription, ValidationQueueSubscriptionVariables, ValidationWaitingQuery,
  ValidationWaitingQueryVariables, HandOutQuery, HandOutQueryVariables,
} from "../api/generated/types";
import type { Document } from "../api/documents";
import type { WithContextFields } from "../api/types";

const doc = <TData, TVariables = Record<string, never>>(source: string) => source as Document<TData, TVariables>;

/** How many examples wait for this validator (`capped`: at least `count`). */
export interface Waiting {
  count: number;
  capped: boolean;
}

const EXAMPLE_FIELDS = `id clientId input modelOutput modelName modelVersion fooled verdict status retracted flagged
  flagReason explanation pendingReason createdAt claimedFooled context { id fields }`;

/** The live queue: the first page and the true count (`waiting`, on a reset), then additions and removals (and the
 * count alone when examples beyond the ones held arrive or leave). */
export const VALIDATION_QUEUE = doc<WithContextFields<ValidationQueueSubscription>, ValidationQueueSubscriptionVariables>(
  `subscription ValidationQueue($roundId: ID!) { examplesToValidate(roundId: $roundId) {
    added { ${EXAMPLE_FIELDS} } removedIds reset waiting { count capped } } }`,
);

export const VALIDATION_WAITING = doc<ValidationWaitingQuery, ValidationWaitingQueryVariables>(
  `query ValidationWaiting($roundId: ID!) { validationWaiting(roundId: $roundId) { count capped } }`,
);

/** Examples handed out to this validator now (the refill as the queue drains, and the fallback when not live). */
export const HAND_OUT = doc<WithContextFields<HandOutQuery>, HandOutQueryVariables>(
  `query HandOut($roundId: ID!, $first: Int!) { nextExamplesToValidate(roundId: $roundId, first: $first) { ${EXAMPLE_FIELDS} } }`,
);

export const VALIDATE_DOCUMENTS = { VALIDATION_QUEUE, VALIDATION_WAITING, HAND_OUT };
