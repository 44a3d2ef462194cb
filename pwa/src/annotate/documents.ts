/** The annotate page's own documents (checked against schema.graphql by annotate/documents.test.ts). */
import type { Document } from "../api/documents";
import type { Connection, Example, ModelPrediction } from "../api/types";
import type { TokenAttribution } from "./explain";

const doc = <TData, TVariables = Record<string, never>>(source: string) => source as Document<TData, TVariables>;

const EXAMPLE_FIELDS = `id clientId input modelOutput modelName modelVersion fooled verdict status retracted flagged
  flagReason explanation pendingReason createdAt claimedFooled context { id }`;

/** The writer's examples of one round (newest first): the attempts on the shown context are picked from them. */
export const ROUND_ATTEMPTS = doc<{ myExamples: Connection<Example> }, { roundId: string; first: number }>(
  `query RoundAttempts($roundId: ID!, $first: Int!) { myExamples(roundId: $roundId, first: $first) {
    pageInfo { hasNextPage endCursor } edges { cursor node { ${EXAMPLE_FIELDS} } } } }`,
);

export interface PredictionExplanation {
  prediction: ModelPrediction;
  tokens: TokenAttribution[];
  modelCalls: number;
}

export const EXPLAIN_PREDICTION = doc<
  { explainPrediction: PredictionExplanation },
  { roundId: string; fields: Record<string, unknown>; contextId: string | null }
>(
  `query ExplainPrediction($roundId: ID!, $fields: JSON!, $contextId: ID) {
    explainPrediction(roundId: $roundId, fields: $fields, contextId: $contextId) {
      prediction { modelName label answer confidence probabilities { label probability } }
      tokens { field text start end attribution } modelCalls } }`,
);

export const ANNOTATE_DOCUMENTS = { ROUND_ATTEMPTS, EXPLAIN_PREDICTION };
