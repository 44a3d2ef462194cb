/** Every GraphQL document the annotation app sends, as strings typed by their generated operation types (npm run codegen). */
import type {
  SignUpMutation, SignUpMutationVariables, LogInMutation, LogInMutationVariables, MeQuery, MeQueryVariables,
  TasksQuery, TasksQueryVariables, NextContextQuery, NextContextQueryVariables, CreateExampleMutation,
  CreateExampleMutationVariables, SubmitExamplesMutation, SubmitExamplesMutationVariables, RetractExampleMutation,
  RetractExampleMutationVariables, FlagExampleMutation, FlagExampleMutationVariables, ExplainExampleMutation,
  ExplainExampleMutationVariables, ClaimFooledMutation, ClaimFooledMutationVariables, AnswerFollowUpMutation,
  AnswerFollowUpMutationVariables, MyExamplesQuery, MyExamplesQueryVariables, ExampleNodeQuery,
  ExampleNodeQueryVariables, RoundStatsSubscription, RoundStatsSubscriptionVariables, ExampleUpdatedSubscription,
  ExampleUpdatedSubscriptionVariables, TaskDetailQuery, TaskDetailQueryVariables, ExamplesToValidateSubscription,
  ExamplesToValidateSubscriptionVariables, NextExamplesToValidateQuery, NextExamplesToValidateQueryVariables,
  ValidateExampleMutation, ValidateExampleMutationVariables, MyModelsQuery, MyModelsQueryVariables, ModelNodeQuery,
  ModelNodeQueryVariables, UploadModelMutation, UploadModelMutationVariables, PublishModelMutation,
  PublishModelMutationVariables, LeaderboardQuery, LeaderboardQueryVariables, SaveLeaderboardConfigMutation,
  SaveLeaderboardConfigMutationVariables, DatasetsQuery, DatasetsQueryVariables, OwnerTasksQuery,
  OwnerTasksQueryVariables, CreateTaskMutation, CreateTaskMutationVariables, CreateRoundMutation,
  CreateRoundMutationVariables, AddContextsMutation, AddContextsMutationVariables, CreateDatasetMutation,
  CreateDatasetMutationVariables, CloseRoundMutation, CloseRoundMutationVariables, ExportRoundMutation,
  ExportRoundMutationVariables,
} from "./generated/types";
import type { WithContextFields, WithTaskConfig } from "./types";

/** A GraphQL document string that carries its result and variables types. */
export type Document<TData, TVariables = Record<string, never>> = string & {
  readonly __data?: TData;
  readonly __variables?: TVariables;
};

const doc = <TData, TVariables = Record<string, never>>(source: string) => source as Document<TData, TVariables>;

const ERROR_FIELDS = `__typename ... on Error { code message } ... on InputError { fields { field message } }`;

const EXAMPLE_FIELDS = `id clientId input modelOutput modelName modelVersion fooled verdict status retracted flagged
  flagReason explanation pendingReason createdAt claimedFooled assistance { kind edited }`;

const PREDICTION_FIELDS = `modelName modelVersion label probabilities { label probability } answer answerStart answerEnd confidence`;

const ROUND_FIELDS = `id number mer vmer totalCollected totalFooled endAt`;

const SUBMITTED_FIELDS = `${ERROR_FIELDS}
  ... on ExampleSubmitted { verdict message duplicate example { ${EXAMPLE_FIELDS} } predictions { ${PREDICTION_FIELDS} } }`;

export const SIGN_UP = doc<SignUpMutation, SignUpMutationVariables>(
  `mutation SignUp($input: SignUpInput!) { signUp(input: $input) { ${ERROR_FIELDS}
    ... on AuthPayload { token user { id username isAdmin } } } }`,
);

export const LOG_IN = doc<LogInMutation, LogInMutationVariables>(
  `mutation LogIn($input: LogInInput!) { logIn(input: $input) { ${ERROR_FIELDS}
    ... on AuthPayload { token user { id username isAdmin } } } }`,
);

export const ME = doc<MeQuery, MeQueryVariables>(`query Me { me { id username isAdmin } }`);

/** `locale`: the instructions come translated when the task's config translates them (docs/task-config.md). */
export const TASKS = doc<WithTaskConfig<TasksQuery>, TasksQueryVariables>(
  `query Tasks($first: Int!, $locale: String) { tasks(first: $first) { pageInfo { hasNextPage endCursor }
    edges { cursor node { id code name description status reviewNote config instructionsHtml(locale: $locale) viewerIsOwner currentRound { ${ROUND_FIELDS} } } } } }`,
);

export const NEXT_CONTEXT = doc<WithContextFields<NextContextQuery>, NextContextQueryVariables>(
  `query NextContext($roundId: ID!, $strategy: ContextStrategy! = LEAST_USED) {
    nextContext(roundId: $roundId, strategy: $strategy) { id fields tag } }`,
);

export const CREATE_EXAMPLE = doc<CreateExampleMutation, CreateExampleMutationVariables>(
  `mutation CreateExample($input: CreateExampleInput!) { createExample(input: $input) { ${SUBMITTED_FIELDS} } }`,
);

export const SUBMIT_EXAMPLES = doc<SubmitExamplesMutation, SubmitExamplesMutationVariables>(
  `mutation SubmitExamples($inputs: [CreateExampleInput!]!) { submitExamples(inputs: $inputs) { ${SUBMITTED_FIELDS} } }`,
);

const CHANGED_FIELDS = `${ERROR_FIELDS} ... on ExampleChanged { example { ${EXAMPLE_FIELDS} } }`;

export const RETRACT_EXAMPLE = doc<RetractExampleMutation, RetractExampleMutationVariables>(
  `mutation RetractExample($exampleId: ID!) { retractExample(exampleId: $exampleId) { ${CHANGED_FIELDS} } }`,
);

export const FLAG_EXAMPLE = doc<FlagExampleMutation, FlagExampleMutationVariables>(
  `mutation FlagExample($exampleId: ID!, $reason: String!) { flagExample(exampleId: $exampleId, reason: $reason) { ${CHANGED_FIELDS} } }`,
);

export const EXPLAIN_EXAMPLE = doc<ExplainExampleMutation, ExplainExampleMutationVariables>(
  `mutation ExplainExample($exampleId: ID!, $explanation: String!) {
    explainExample(exampleId: $exampleId, explanation: $explanation) { ${CHANGED_FIELDS} } }`,
);

export const CLAIM_FOOLED = doc<ClaimFooledMutation, ClaimFooledMutationVariables>(
  `mutation ClaimFooled($input: ClaimFooledInput!) { claimFooled(input: $input) { ${ERROR_FIELDS}
    ... on FoolingClaimed { verdict message duplicate example { ${EXAMPLE_FIELDS} } } } }`,
);

/** The task's fooled / not_fooled fields of an example, after its verdict (pwa/src/annotate/FollowUp.tsx). */
export const ANSWER_FOLLOW_UP = doc<AnswerFollowUpMutation, AnswerFollowUpMutationVariables>(
  `mutation AnswerFollowUp($input: AnswerFollowUpInput!) { answerFollowUp(input: $input) { ${ERROR_FIELDS}
    ... on FollowUpAnswered { duplicate example { ${EXAMPLE_FIELDS} } } } }`,
);

export const MY_EXAMPLES = doc<MyExamplesQuery, MyExamplesQueryVariables>(
  `query MyExamples($first: Int!, $after: String) { myExamples(first: $first, after: $after) {
    pageInfo { hasNextPage endCursor }
    edges { cursor node { ${EXAMPLE_FIELDS} round { id number task { code name } } } } } }`,
);

export const EXAMPLE_NODE = doc<ExampleNodeQuery, ExampleNodeQueryVariables>(
  `query ExampleNode($id: ID!) { node(id: $id) { ... on Example { ${EXAMPLE_FIELDS} } } }`,
);

export const ROUND_STATS = doc<RoundStatsSubscription, RoundStatsSubscriptionVariables>(
  `subscription RoundStats($roundId: ID!) { roundStats(roundId: $roundId) { ${ROUND_FIELDS} } }`,
);

export const EXAMPLE_UPDATED = doc<ExampleUpdatedSubscription, ExampleUpdatedSubscriptionVariables>(
  `subscription ExampleUpdated($exampleId: ID!) { exampleUpdated(exampleId: $exampleId) { ${EXAMPLE_FIELDS} } }`,
);

// ---- Validation ------------------------------------------------------------------------------

const ROUND_DETAIL_FIELDS = `${ROUND_FIELDS} startAt totalValidated totalValidatedFooled targetModels { name version modelId }`;
const TASK_FIELDS = `id code name description config status reviewNote active viewerIsOwner hasScoringDataset scoringNotice currentRound { ${ROUND_FIELDS} }
  rounds(first: 100) { pageInfo { hasNextPage endCursor } edges { cursor node { ${ROUND_DETAIL_FIELDS} } } }`;

export const TASK_DETAIL = doc<WithTaskConfig<TaskDetailQuery>, TaskDetailQueryVariables>(
  `query TaskDetail($code: String!) { task(code: $code) { ${TASK_FIELDS} } }`,
);

const QUEUE_EXAMPLE_FIELDS = `${EXAMPLE_FIELDS} context { id fields }`;

export const EXAMPLES_TO_VALIDATE = doc<WithContextFields<ExamplesToValidateSubscription>, ExamplesToValidateSubscriptionVariables>(
  `subscription ExamplesToValidate($roundId: ID!) { examplesToValidate(roundId: $roundId) {
    added { ${QUEUE_EXAMPLE_FIELDS} } removedIds reset } }`,
);

export const NEXT_EXAMPLES_TO_VALIDATE = doc<WithContextFields<NextExamplesToValidateQuery>, NextExamplesToValidateQueryVariables>(
  `query NextExamplesToValidate($roundId: ID!, $first: Int!) { nextExamplesToValidate(roundId: $roundId, first: $first) {
    ${QUEUE_EXAMPLE_FIELDS} } }`,
);

export const VALIDATE_EXAMPLE = doc<ValidateExampleMutation, ValidateExampleMutationVariables>(
  `mutation ValidateExample($exampleId: ID!, $label: ValidationLabel!, $mode: ValidationMode!, $note: String!, $fields: JSON) {
    validateExample(exampleId: $exampleId, label: $label, mode: $mode, note: $note, fields: $fields) { ${ERROR_FIELDS}
      ... on ExampleValidated { validation { label mode note } example { id status } } } }`,
);

// ---- Researchers: models and the leaderboard ---------------------------------------------------

const MODEL_FIELDS = `id name card status published anonymous createdAt retrainedFromId statusLog { at status message }
  owner { username } task { code name } inTheLoop`;

export const MY_MODELS = doc<MyModelsQuery, MyModelsQueryVariables>(
  `query MyModels($taskCode: String) { myModels(taskCode: $taskCode) { ${MODEL_FIELDS} } }`,
);

export const MODEL_NODE = doc<ModelNodeQuery, ModelNodeQueryVariables>(
  `query ModelNode($id: ID!) { node(id: $id) { ... on Model { ${MODEL_FIELDS} } } }`,
);

/** Sent as a multipart request (operations + map + the file), see api/upload.ts. */
export const UPLOAD_MODEL = doc<UploadModelMutation, UploadModelMutationVariables>(
  `mutation UploadModel($taskCode: String!, $name: String!, $archive: Upload!, $card: ModelCardInput, $anonymous: Boolean!) {
    uploadModel(taskCode: $taskCode, name: $name, archive: $archive, card: $card, anonymous: $anonymous) { ${ERROR_FIELDS}
      ... on ModelUploaded { model { ${MODEL_FIELDS} } } } }`,
);

export const PUBLISH_MODEL = doc<PublishModelMutation, PublishModelMutationVariables>(
  `mutation PublishModel($modelId: ID!, $published: Boolean!) { publishModel(modelId: $modelId, published: $published) {
    __typename ... on Error { code message } ... on ModelChanged { model { ${MODEL_FIELDS} } } } }`,
);

export const LEADERBOARD = doc<LeaderboardQuery, LeaderboardQueryVariables>(
  `query Leaderboard($taskCode: String!, $metricWeights: [MetricWeightInput!], $datasetWeights: [DatasetWeightInput!],
    $configName: String, $exactDynaboard: Boolean!) {
    leaderboard(taskCode: $taskCode, metricWeights: $metricWeights, datasetWeights: $datasetWeights, configName: $configName,
      exactDynaboard: $exactDynaboard, first: 50) {
      totalCount exactDynaboard
      edges { node { rank dynascore model { id name owner { username } inTheLoop }
        metrics { perf throughput memory robustness fairness } contributions { metric points share } } }
      metricWeights { metric weight } metricsInEffect
      datasetWeights { dataset { id name } weight }
      datasetOverlap { datasetId datasetName rowsOverlappingTrainingData rowsDuplicatingCollected } } }`,
);

export const SAVE_LEADERBOARD_CONFIG = doc<SaveLeaderboardConfigMutation, SaveLeaderboardConfigMutationVariables>(
  `mutation SaveLeaderboardConfig($taskCode: String!, $name: String!, $metricWeights: [MetricWeightInput!]!,
    $datasetWeights: [DatasetWeightInput!]) {
    saveLeaderboardConfig(taskCode: $taskCode, name: $name, metricWeights: $metricWeights, datasetWeights: $datasetWeights) {
      ${ERROR_FIELDS} ... on LeaderboardConfigSaved { name } } }`,
);

export const DATASETS = doc<DatasetsQuery, DatasetsQueryVariables>(
  `query Datasets($taskCode: String!) { datasets(taskCode: $taskCode) { id name access weight exampleCount } }`,
);

// ---- Task owners ------------------------------------------------------------------------------

export const OWNER_TASKS = doc<OwnerTasksQuery, OwnerTasksQueryVariables>(
  `query OwnerTasks($first: Int!) { tasks(first: $first) { pageInfo { hasNextPage endCursor }
    edges { cursor node { id code name status viewerIsOwner } } } }`,
);

export const CREATE_TASK = doc<CreateTaskMutation, CreateTaskMutationVariables>(
  `mutation CreateTask($input: CreateTaskInput!) { createTask(input: $input) { ${ERROR_FIELDS}
    ... on TaskCreated { task { id code name } } } }`,
);

export const CREATE_ROUND = doc<CreateRoundMutation, CreateRoundMutationVariables>(
  `mutation CreateRound($input: CreateRoundInput!) { createRound(input: $input) { ${ERROR_FIELDS}
    ... on RoundCreated { round { ${ROUND_DETAIL_FIELDS} } } } }`,
);

export const ADD_CONTEXTS = doc<AddContextsMutation, AddContextsMutationVariables>(
  `mutation AddContexts($input: AddContextsInput!) { addContexts(input: $input) { ${ERROR_FIELDS}
    ... on ContextsAdded { count } } }`,
);

/** Sent as a multipart request (the JSONL file). */
export const CREATE_DATASET = doc<CreateDatasetMutation, CreateDatasetMutationVariables>(
  `mutation CreateDataset($taskCode: String!, $name: String!, $file: Upload!, $access: DatasetAccess!, $weight: Float!,
    $roundNumber: Int) {
    createDataset(taskCode: $taskCode, name: $name, file: $file, access: $access, weight: $weight, roundNumber: $roundNumber) {
      ${ERROR_FIELDS} ... on DatasetCreated { exampleCount dataset { id name access weight exampleCount } } } }`,
);

export const CLOSE_ROUND = doc<CloseRoundMutation, CloseRoundMutationVariables>(
  `mutation CloseRound($roundId: ID!) { closeRound(roundId: $roundId) { __typename ... on Error { code message }
    ... on RoundClosed { round { id number endAt } } } }`,
);

/** A same-origin download link (valid for 15 minutes) for every example of a round. */
export const EXPORT_ROUND = doc<ExportRoundMutation, ExportRoundMutationVariables>(
  `mutation ExportRound($roundId: ID!, $format: ExportFormat!) { exportRound(roundId: $roundId, format: $format) {
    ${ERROR_FIELDS} ... on RoundExport { url format expiresAt } } }`,
);

/** Every document, for the schema check in tests. */
export const ALL_DOCUMENTS = {
  SIGN_UP, LOG_IN, ME, TASKS, NEXT_CONTEXT, CREATE_EXAMPLE, SUBMIT_EXAMPLES, RETRACT_EXAMPLE, FLAG_EXAMPLE,
  EXPLAIN_EXAMPLE, CLAIM_FOOLED, ANSWER_FOLLOW_UP, MY_EXAMPLES, EXAMPLE_NODE, ROUND_STATS, EXAMPLE_UPDATED, TASK_DETAIL, EXAMPLES_TO_VALIDATE,
  NEXT_EXAMPLES_TO_VALIDATE, VALIDATE_EXAMPLE, MY_MODELS, MODEL_NODE, UPLOAD_MODEL, PUBLISH_MODEL,
  LEADERBOARD, SAVE_LEADERBOARD_CONFIG, DATASETS, OWNER_TASKS, CREATE_TASK, CREATE_ROUND, ADD_CONTEXTS, CREATE_DATASET,
  CLOSE_ROUND, EXPORT_ROUND,
};
