/** The owners' browse documents (checked against schema.graphql by documents.test.ts). */
import type {
  RoundExamplesQuery, RoundExamplesQueryVariables, FlaggedExamplesQuery, FlaggedExamplesQueryVariables,
  ExampleReviewQuery, ExampleReviewQueryVariables, ActOnExamplesMutation, ActOnExamplesMutationVariables,
} from "../../api/generated/types";
import type { Document } from "../../api/documents";
import type { ErrorResult, Example, ValidationLabel, ValidationMode } from "../../api/types";
import type { Outcome } from "./filters";

const doc = <TData, TVariables = Record<string, never>>(source: string) => source as Document<TData, TVariables>;

const EXAMPLE_FIELDS = `id clientId input modelOutput modelName modelVersion fooled verdict status retracted flagged
  flagReason explanation pendingReason createdAt claimedFooled`;

const PAGE = `pageInfo { hasNextPage endCursor } edges { cursor node { ${EXAMPLE_FIELDS} } }`;

export const ROUND_EXAMPLES = doc<RoundExamplesQuery, RoundExamplesQueryVariables>(
  `query RoundExamples($roundId: ID!, $filter: ExampleFilterInput, $first: Int!, $after: String) {
    roundExamples(roundId: $roundId, filter: $filter, first: $first, after: $after) { ${PAGE} } }`,
);

export const FLAGGED_EXAMPLES = doc<FlaggedExamplesQuery, FlaggedExamplesQueryVariables>(
  `query FlaggedExamples($taskCode: String!, $first: Int!, $after: String) {
    flaggedExamples(taskCode: $taskCode, first: $first, after: $after) { ${PAGE} } }`,
);

export interface ExampleReview {
  example: Example;
  votes: {
    username: string; label: ValidationLabel; mode: ValidationMode; note: string; createdAt: string;
    fields: Record<string, unknown>;
  }[];
  history: { action: string; username: string | null; note: string; createdAt: string }[];
  goldAnswer: ValidationLabel | null;
}

export const EXAMPLE_REVIEW = doc<ExampleReviewQuery, ExampleReviewQueryVariables>(
  `query ExampleReview($exampleId: ID!) { exampleReview(exampleId: $exampleId) {
    example { ${EXAMPLE_FIELDS} } votes { username label mode note createdAt fields } history { action username note createdAt }
    goldAnswer } }`,
);

export type ActResult = { __typename: "ExamplesActedOn"; outcomes: Outcome[] } | ErrorResult;

export const ACT_ON_EXAMPLES = doc<ActOnExamplesMutation, ActOnExamplesMutationVariables>(
  `mutation ActOnExamples($exampleIds: [ID!]!, $action: ExampleBulkAction!, $note: String!) {
    actOnExamples(exampleIds: $exampleIds, action: $action, note: $note) {
      __typename ... on Error { code message } ... on InputError { fields { field message } }
      ... on ExamplesActedOn { outcomes { exampleId done code message example { ${EXAMPLE_FIELDS} } } } } }`,
);

export const BROWSE_DOCUMENTS = { ROUND_EXAMPLES, FLAGGED_EXAMPLES, EXAMPLE_REVIEW, ACT_ON_EXAMPLES };
