/** The annotate page's own documents (checked against schema.graphql by annotate/documents.test.ts). */
import type {
  RoundAttemptsQuery, RoundAttemptsQueryVariables, ExplainPredictionQuery, ExplainPredictionQueryVariables,
} from "../api/generated/types";
import type { Document } from "../api/documents";

const doc = <TData, TVariables = Record<string, never>>(source: string) => source as Document<TData, TVariables>;

const EXAMPLE_FIELDS = `id clientId input modelOutput modelName modelVersion fooled verdict status retracted flagged
  flagReason explanation pendingReason createdAt claimedFooled context { id }`;

/** The writer's examples of one round (newest first): the attempts on the shown context are picked from them. */
export const ROUND_ATTEMPTS = doc<RoundAttemptsQuery, RoundAttemptsQueryVariables>(
  `query RoundAttempts($roundId: ID!, $first: Int!) { myExamples(roundId: $roundId, first: $first) {
    pageInfo { hasNextPage endCursor } edges { cursor node { ${EXAMPLE_FIELDS} } } } }`,
);

export type PredictionExplanation = ExplainPredictionQuery["explainPrediction"];

export const EXPLAIN_PREDICTION = doc<ExplainPredictionQuery, ExplainPredictionQueryVariables>(
  `query ExplainPrediction($roundId: ID!, $fields: JSON!, $contextId: ID) {
    explainPrediction(roundId: $roundId, fields: $fields, contextId: $contextId) {
      prediction { modelName label answer confidence probabilities { label probability } }
      tokens { field text start end attribution } modelCalls } }`,
);

export const ANNOTATE_DOCUMENTS = { ROUND_ATTEMPTS, EXPLAIN_PREDICTION };
