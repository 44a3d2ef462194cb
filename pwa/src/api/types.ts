/** TypeScript shapes of the parts of schema.graphql the annotation app reads and writes. */

/** AWAITING_CLAIM: fooling ask_user, the author says whether the model got it wrong (claimFooled). */
export type Verdict = "FOOLED" | "NOT_FOOLED" | "PENDING" | "AWAITING_CLAIM";

export interface FieldError {
  field: string;
  message: string;
}

/** Any member of a mutation's result union that implements `Error`. */
export interface ErrorResult {
  __typename:
    | "InputError"
    | "NotFoundError"
    | "ConflictError"
    | "ModelUnavailableError"
    | "RoundClosedError"
    | "DuplicateExampleError"
    | "AuthenticationError"
    | "PermissionError"
    | "ArchiveRejectedError"
    | "RateLimitedError";
  code: string;
  message: string;
  fields?: FieldError[];
}

export interface User {
  id: string;
  username: string;
  isAdmin: boolean;
}

export interface AuthPayload {
  __typename: "AuthPayload";
  token: string;
  user: User;
}

export type AuthResult = AuthPayload | ErrorResult;

export interface FieldSpec {
  name: string;
  display_name?: string;
  placeholder?: string;
  max_length?: number;
}

export interface TaskConfig {
  kind: "classification" | "extractive_qa" | "generative";
  context_fields: FieldSpec[];
  input_fields: FieldSpec[];
  labels?: string[] | null;
  answer_context_field?: string | null;
  /** Fields a validator fills in by vote (read with pwa/src/forms/specs.ts `parseValidatorFields`). */
  validator_fields?: unknown[];
  /** Per-locale name, instructions and display names (docs/task-config.md; read with i18n/taskText.ts). */
  translations?: Record<string, { name?: string | null; instructions?: string | null; labels?: Record<string, string>; fields?: Record<string, string> }> | null;
  [other: string]: unknown;
}

export interface RoundSummary {
  id: string;
  number: number;
  mer: number | null;
  vmer: number | null;
  totalCollected: number;
  totalFooled: number;
  endAt?: string | null;
}

export type TaskStatus = "PROPOSED" | "REJECTED" | "PUBLIC" | "HIDDEN" | "ARCHIVED";

export interface Task {
  id: string;
  code: string;
  name: string;
  description: string;
  config: TaskConfig;
  /** PUBLIC for everyone; the others reach only owners and admins, except ARCHIVED (listed, read-only). */
  status?: TaskStatus;
  /** An admin's note on approving or rejecting a proposal (owners only). */
  reviewNote?: string | null;
  /** The task's markdown instructions as HTML the server sanitized (empty when there are none). */
  instructionsHtml?: string;
  /** The viewer owns it (the shell gives owners an "Own tasks" tab); absent in lists cached before it existed. */
  viewerIsOwner?: boolean;
  currentRound: RoundSummary | null;
}

export interface Context {
  id: string;
  fields: Record<string, string>;
  tag: string | null;
}

export interface LabelProbability {
  label: string;
  probability: number;
}

export interface ModelPrediction {
  modelName: string;
  modelVersion: string;
  label: string | null;
  probabilities: LabelProbability[] | null;
  answer: string | null;
  answerStart: number | null;
  answerEnd: number | null;
  confidence: number | null;
}

export interface Example {
  id: string;
  clientId: string;
  input: Record<string, unknown>;
  modelOutput: Record<string, unknown> | null;
  modelName: string;
  modelVersion: string;
  fooled: boolean | null;
  verdict: Verdict;
  status: string;
  retracted: boolean;
  flagged: boolean;
  flagReason: string;
  explanation: string;
  pendingReason: string;
  createdAt: string;
  /** fooling ask_user: the author's claim that the model got it wrong; null before it and on other tasks. */
  claimedFooled?: boolean | null;
  /** Written from a suggestion (suggestExamples): its kind and whether the author edited it; null otherwise. */
  assistance?: { kind: string; edited: boolean } | null;
  round?: { id: string; number: number; task: { code: string; name: string } };
  context?: { id: string; fields: Record<string, string> };
}

export interface ExampleSubmitted {
  __typename: "ExampleSubmitted";
  verdict: Verdict;
  message: string;
  duplicate: boolean;
  example: Example | null;
  predictions: ModelPrediction[];
}

export type CreateExampleResult = ExampleSubmitted | ErrorResult;

export interface ExampleChanged {
  __typename: "ExampleChanged";
  example: Example;
}

export type ExampleChangeResult = ExampleChanged | ErrorResult;

/** ClaimFooledInput, as JSON: the author's answer to "Did the model get it wrong?" (clientId: a UUID). */
export interface ClaimFooledInput {
  exampleId: string;
  modelWasWrong: boolean;
  clientId: string;
}

export interface FoolingClaimed {
  __typename: "FoolingClaimed";
  verdict: Verdict;
  message: string;
  duplicate: boolean;
  example: Example;
}

export type ClaimFooledResult = FoolingClaimed | ErrorResult;

/** The follow-up after the verdict: the task's fooled / not_fooled fields of an example (clientId: a UUID). */
export interface AnswerFollowUpInput {
  exampleId: string;
  clientId: string;
  fields: Record<string, unknown>;
}

export interface FollowUpAnswered {
  __typename: "FollowUpAnswered";
  duplicate: boolean;
  example: Example; // its `input` now holds the answers
}

export type AnswerFollowUpResult = FollowUpAnswered | ErrorResult;

/** CreateExampleInput, as JSON. */
export interface CreateExampleInput {
  roundId: string;
  contextId: string;
  /** The always-shown input fields' values (see pwa/src/forms/values.ts `apiValues`). */
  fields: Record<string, unknown>;
  clientId?: string | null;
  label?: string | null;
  answer?: string | null;
  answerStart?: number | null;
  explanation?: string;
  timeSpentMs?: number | null;
  sandbox?: boolean;
  /** Written from this suggestion (pwa/src/suggest): the example records it. */
  suggestionId?: string | null;
}

export interface Connection<T> {
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
  edges: { cursor: string; node: T }[];
}

// ---- Validation -------------------------------------------------------------------------------

export type ValidationLabel = "CORRECT" | "INCORRECT" | "FLAGGED";
export type ValidationMode = "USER" | "OWNER";

/** An example in a validator's queue, with the context it was written against. */
export interface QueueExample extends Example {
  context: { id: string; fields: Record<string, string> };
}

export interface ValidationQueueUpdate {
  added: QueueExample[];
  removedIds: string[];
  reset: boolean;
}

export interface ExampleValidated {
  __typename: "ExampleValidated";
  validation: { label: ValidationLabel; mode: ValidationMode; note: string };
  example: { id: string; status: string };
}

export type ValidateExampleResult = ExampleValidated | ErrorResult;

/** One round of a task, with its numbers (owner chart, round picker). */
export interface RoundDetail extends RoundSummary {
  startAt: string;
  totalValidated: number;
  totalValidatedFooled: number;
  /** What the round's examples are judged by (an LLM endpoint as `endpoint:<name>`); absent in details cached before. */
  targetModels?: { name: string; version: string }[];
}

export type ExportFormat = "JSONL" | "HF_DATASET";

/** `exportRound`'s answer: GET `url` (same origin) before `expiresAt`. */
export interface RoundExport {
  __typename: "RoundExport";
  url: string;
  format: ExportFormat;
  expiresAt: string;
}

/** A task with what the viewer may do on it. */
export interface TaskDetail extends Task {
  viewerIsOwner: boolean;
  active: boolean;
  /** Without a scoring dataset, submissions are "Not ranked" (optional: details cached before it existed lack it). */
  hasScoringDataset?: boolean;
  /** To the task's owners while it has no scoring dataset; null otherwise. */
  scoringNotice?: string | null;
  rounds: Connection<RoundDetail>;
}

// ---- Models and the leaderboard ---------------------------------------------------------------

export type Metric = "PERF" | "THROUGHPUT" | "MEMORY" | "ROBUSTNESS" | "FAIRNESS";

export interface StatusEntry {
  at: string;
  status: string;
  message: string;
}

export interface Model {
  id: string;
  name: string;
  card: Record<string, unknown>;
  status: string;
  published: boolean;
  anonymous: boolean;
  createdAt: string;
  statusLog: StatusEntry[] | null;
  owner: { username: string } | null;
  /** Null when the viewer may not see the task (e.g. it was hidden from them after the upload). */
  task: { code: string; name: string } | null;
  /** Numbers of the open rounds this submission judges ("in the loop for round N"). */
  inTheLoop: number[];
}

export interface Dataset {
  id: string;
  name: string;
  access: "SCORING" | "STANDARD" | "HIDDEN";
  weight: number;
  exampleCount: number;
}

export interface MetricValues {
  perf: number | null;
  throughput: number | null;
  memory: number | null;
  robustness: number | null;
  fairness: number | null;
}

export interface LeaderboardRow {
  rank: number;
  dynascore: number;
  model: { id: string; name: string; owner: { username: string } | null; inTheLoop: number[] };
  metrics: MetricValues;
  /** Each metric's part of the Dynascore (they sum to it); `share` = points / dynascore, null when not readable. */
  contributions: { metric: Metric; points: number; share: number | null }[];
}

export interface DatasetOverlap {
  datasetId: string;
  datasetName: string;
  rowsOverlappingTrainingData: number | null;
  rowsDuplicatingCollected: number | null;
}

/** The leaderboard as a Relay connection (one page of ranked models). */
export interface LeaderboardConnection {
  datasetOverlap?: DatasetOverlap[];
  edges: { node: LeaderboardRow }[];
  totalCount: number;
  /** False: resolved Dynascores (measurement resolution, terms from the worst model); true: Dynaboard's exact numbers. */
  exactDynaboard: boolean;
  metricWeights: { metric: Metric; weight: number }[];
  /** Metrics whose weight can change scores now (PERF always; others need two models that differ). */
  metricsInEffect?: Metric[];
  datasetWeights: { dataset: { id: string; name: string }; weight: number }[];
}

export interface MetricWeightInput {
  metric: Metric;
  weight: number;
}

export interface DatasetWeightInput {
  datasetId: string;
  weight: number;
}

/** Any mutation result: a success type or an error type. */
export type Result<T extends { __typename: string }> = T | ErrorResult;
