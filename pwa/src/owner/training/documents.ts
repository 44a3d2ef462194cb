/** The training runs page's documents (checked against schema.graphql by training/documents.test.ts). */
import type {
  TrainingRunsQuery, TrainingRunsQueryVariables, TrainingRunWatchSubscription, TrainingRunWatchSubscriptionVariables,
  TrainTargetModelMutation, TrainTargetModelMutationVariables, CancelTrainingRunMutation, CancelTrainingRunMutationVariables,
  OverrideTrainingGateMutation, OverrideTrainingGateMutationVariables, OpenNextRoundMutation, OpenNextRoundMutationVariables,
} from "../../api/generated/types";
import type { Document } from "../../api/documents";

const doc = <TData, TVariables = Record<string, never>>(source: string) => source as Document<TData, TVariables>;

export type { TrainingProfile } from "../../api/generated/types";
export type TrainingRun = TrainingRunsQuery["trainingRuns"][number];
export type Gate = NonNullable<TrainingRun["gate"]>;
export type HeldOut = Gate["heldOut"];
export type ScoringRow = Gate["scoring"][number];

const RUN = `id status progress fromRounds profile modelName modelVersion sourceModelId newModelId nValidated scoringTolerance minHeldOut
  includeAgreed cancelRequested overrideReason overriddenAt overriddenBy wallSeconds cpuSeconds createdAt
  statusLog { at status message }
  trainingData { validatedExamples validatedRead agreedRead validatedHeldOut }
  gate { passed currentVersion newVersion summary
    heldOut { examples minimum enough currentError newError difference ciLow ciHigh mcnemarP onlyCurrentWrong onlyNewWrong better }
    scoring { dataset currentError newError difference tolerance passed } }`;

const ERRORS = `... on InputError { fields { field message } } ... on Error { code message }`;

export const TRAINING_RUNS = doc<TrainingRunsQuery, TrainingRunsQueryVariables>(
  `query TrainingRuns($taskCode: String!, $first: Int!) { trainingRuns(taskCode: $taskCode, first: $first) { ${RUN} } }`,
);

/** A run now, then at every status or progress change. */
export const TRAINING_RUN_WATCH = doc<TrainingRunWatchSubscription, TrainingRunWatchSubscriptionVariables>(
  `subscription TrainingRunWatch($runId: ID!) { trainingRunUpdated(runId: $runId) { ${RUN} } }`,
);

export const TRAIN_TARGET_MODEL = doc<TrainTargetModelMutation, TrainTargetModelMutationVariables>(
  `mutation TrainTargetModel($taskCode: String!, $fromRounds: [Int!]!, $profile: TrainingProfile!, $scoringTolerance: Float!,
    $minHeldOut: Int!, $includeAgreed: Boolean!) {
    trainTargetModel(taskCode: $taskCode, fromRounds: $fromRounds, profile: $profile, scoringTolerance: $scoringTolerance,
      minHeldOut: $minHeldOut, includeAgreed: $includeAgreed) { __typename ... on TrainingStarted { run { ${RUN} } } ${ERRORS} } }`,
);

export const CANCEL_TRAINING_RUN = doc<CancelTrainingRunMutation, CancelTrainingRunMutationVariables>(
  `mutation CancelTrainingRun($runId: ID!) { cancelTrainingRun(runId: $runId) { __typename
    ... on TrainingRunCancelled { run { ${RUN} } } ${ERRORS} } }`,
);

export const OVERRIDE_TRAINING_GATE = doc<OverrideTrainingGateMutation, OverrideTrainingGateMutationVariables>(
  `mutation OverrideTrainingGate($runId: ID!, $reason: String!) { overrideTrainingGate(runId: $runId, reason: $reason) {
    __typename ... on TrainingGateOverridden { run { ${RUN} } } ${ERRORS} } }`,
);

export const OPEN_NEXT_ROUND = doc<OpenNextRoundMutation, OpenNextRoundMutationVariables>(
  `mutation OpenNextRound($taskCode: String!, $modelVersion: String!) { openNextRound(taskCode: $taskCode, modelVersion: $modelVersion) {
    __typename ... on NextRoundOpened { round { id number targetModels { name version } } } ${ERRORS} } }`,
);

export const TRAINING_DOCUMENTS = {
  TRAINING_RUNS, TRAINING_RUN_WATCH, TRAIN_TARGET_MODEL, CANCEL_TRAINING_RUN, OVERRIDE_TRAINING_GATE, OPEN_NEXT_ROUND,
};

export type StartResult = TrainTargetModelMutation["trainTargetModel"];
