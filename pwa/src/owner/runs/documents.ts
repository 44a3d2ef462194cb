/** The adversary runs' documents (checked against schema.graphql by runs/documents.test.ts). */
import type {
  RoundRunsQuery, RoundRunsQueryVariables, StartAdversaryRunMutation, StartAdversaryRunMutationVariables,
  CancelAdversaryRunMutation, CancelAdversaryRunMutationVariables,
} from "../../api/generated/types";
import type { Document } from "../../api/documents";

const doc = <TData, TVariables = Record<string, never>>(source: string) => source as Document<TData, TVariables>;

export type { AdversaryRunStatus as RunStatus } from "../../api/generated/types";
export type AdversaryRun = Extract<NonNullable<RoundRunsQuery["node"]>, { adversaryRuns: unknown }>["adversaryRuns"][number];

const RUN = `id status requested produced fooled validated validatedFooled awaitingValidation refused generator error
  startedBy createdAt finishedAt`;

export type RunResult = StartAdversaryRunMutation["startAdversaryRun"] | CancelAdversaryRunMutation["cancelAdversaryRun"];

export const ROUND_RUNS = doc<RoundRunsQuery, RoundRunsQueryVariables>(
  `query RoundRuns($roundId: ID!) { node(id: $roundId) { ... on Round { adversaryRuns { ${RUN} } } } }`,
);

export const START_ADVERSARY_RUN = doc<StartAdversaryRunMutation, StartAdversaryRunMutationVariables>(
  `mutation StartAdversaryRun($input: StartAdversaryRunInput!) { startAdversaryRun(input: $input) { __typename
    ... on AdversaryRunStarted { run { ${RUN} } }
    ... on InputError { fields { field message } }
    ... on RateLimitedError { retryAfterSeconds }
    ... on Error { code message } } }`,
);

export const CANCEL_ADVERSARY_RUN = doc<CancelAdversaryRunMutation, CancelAdversaryRunMutationVariables>(
  `mutation CancelAdversaryRun($runId: ID!) { cancelAdversaryRun(runId: $runId) { __typename
    ... on AdversaryRunCancelled { run { ${RUN} } }
    ... on Error { code message } } }`,
);

export const RUN_DOCUMENTS = { ROUND_RUNS, START_ADVERSARY_RUN, CANCEL_ADVERSARY_RUN };
