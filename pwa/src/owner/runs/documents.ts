/** The adversary runs' documents (checked against schema.graphql by runs/documents.test.ts). */
import type { Document } from "../../api/documents";

const doc = <TData, TVariables = Record<string, never>>(source: string) => source as Document<TData, TVariables>;

export type RunStatus = "QUEUED" | "RUNNING" | "DONE" | "FAILED" | "CANCELLED";

export interface AdversaryRun {
  id: string;
  status: RunStatus;
  requested: number;
  produced: number;
  fooled: number;
  validated: number;
  validatedFooled: number;
  awaitingValidation: number;
  refused: number;
  generator: string;
  error: string;
  startedBy: string;
  createdAt: string;
  finishedAt: string | null;
}

const RUN = `id status requested produced fooled validated validatedFooled awaitingValidation refused generator error
  startedBy createdAt finishedAt`;

export type RunResult =
  | { __typename: "AdversaryRunStarted" | "AdversaryRunCancelled"; run: AdversaryRun }
  | { __typename: string; code?: string; message: string; retryAfterSeconds?: number; fields?: { field: string; message: string }[] };

export const ROUND_RUNS = doc<{ node: { adversaryRuns?: AdversaryRun[] } | null }, { roundId: string }>(
  `query RoundRuns($roundId: ID!) { node(id: $roundId) { ... on Round { adversaryRuns { ${RUN} } } } }`,
);

export const START_ADVERSARY_RUN = doc<
  { startAdversaryRun: RunResult },
  { input: { roundId: string; clientId: string; count: number } }
>(
  `mutation StartAdversaryRun($input: StartAdversaryRunInput!) { startAdversaryRun(input: $input) { __typename
    ... on AdversaryRunStarted { run { ${RUN} } }
    ... on InputError { fields { field message } }
    ... on RateLimitedError { retryAfterSeconds }
    ... on Error { code message } } }`,
);

export const CANCEL_ADVERSARY_RUN = doc<{ cancelAdversaryRun: RunResult }, { runId: string }>(
  `mutation CancelAdversaryRun($runId: ID!) { cancelAdversaryRun(runId: $runId) { __typename
    ... on AdversaryRunCancelled { run { ${RUN} } }
    ... on Error { code message } } }`,
);

export const RUN_DOCUMENTS = { ROUND_RUNS, START_ADVERSARY_RUN, CANCEL_ADVERSARY_RUN };
