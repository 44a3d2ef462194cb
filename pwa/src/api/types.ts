/**
 * Names for the API shapes the annotation app passes around. Each is read from the generated type of an operation
 * that fetches it (./generated/types.ts, `npm run codegen`), so a field renamed or retyped in schema.graphql fails
 * the type check wherever it is read. Only the insides of JSON fields (a task's config) are written here.
 */
import type * as G from "./generated/types";

export type {
  AnswerFollowUpInput, ClaimFooledInput, DatasetWeightInput, ExportFormat, Metric, MetricWeightInput,
  TaskStatus, ValidationLabel, ValidationMode, Verdict,
} from "./generated/types";

/** The schema's JSON fields, as generated: objects whose insides the schema does not describe. */
type JsonObject = Record<string, unknown>;

/**
 * `T` with every JSON field named `Field`, at any depth, read as `Shape`: what the app knows of the insides (a task's
 * config, a context's fields). Fields of that name that are not JSON (InputError's `fields`) keep their own type.
 */
export type ReadJson<T, Field extends string, Shape> = T extends readonly (infer Item)[]
  ? ReadJson<Item, Field, Shape>[]
  : T extends object
    ? { [K in keyof T]: K extends Field ? (JsonObject extends T[K] ? Exclude<T[K], JsonObject> | Shape : ReadJson<T[K], Field, Shape>) : ReadJson<T[K], Field, Shape> }
    : T;

/** An `Extract` by `__typename`: one member of a result union. */
type Member<Union, Name extends string> = Extract<Union, { __typename: Name }>;

type InputError = Member<G.SignUpMutation["signUp"], "InputError">;
export type FieldError = InputError["fields"][number];

/** Any refusal in a mutation's result union (every generated error member is one; only InputError has `fields`). */
export interface ErrorResult {
  __typename: string;
  code: string;
  message: string;
  fields?: FieldError[];
}

/** A refusal's messages per input field (empty unless it is an InputError). */
export const fieldErrors = (refusal: ErrorResult): FieldError[] => refusal.fields ?? [];

/** Any mutation result: a success type or an error type. */
export type Result<T extends { __typename: string }> = T | ErrorResult;

export interface Connection<T> {
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
  edges: { cursor: string; node: T }[];
}

export type User = NonNullable<G.MeQuery["me"]>;
export type AuthResult = G.SignUpMutation["signUp"] | G.LogInMutation["logIn"];
export type AuthPayload = Member<AuthResult, "AuthPayload">;

// ---- Task configs (JSON: docs/task-config.md; the server validates them on save) -------------------------------

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

/** A task's `config` read as a TaskConfig (documents.ts types every task document so). */
export type WithTaskConfig<T> = ReadJson<T, "config", TaskConfig>;
/** A context's `fields`: its texts by context field name. */
export type WithContextFields<T> = ReadJson<T, "fields", Record<string, string>>;

/** An example as the app sends it: its `fields` (JSON) are the input fields' values (forms/values.ts `apiValues`). */
export type CreateExampleInput = G.CreateExampleInput & { fields: Record<string, unknown> };

// ---- Tasks, rounds and examples --------------------------------------------------------------------------------

export type RoundSummary = G.RoundStatsSubscription["roundStats"];
/** A task in the list (cached in IndexedDB: lists cached before a field existed lack it). */
export type Task = WithTaskConfig<G.TasksQuery["tasks"]["edges"][number]["node"]>;
/** A task with what the viewer may do on it. */
export type TaskDetail = WithTaskConfig<NonNullable<G.TaskDetailQuery["task"]>>;
/** One round of a task, with its numbers (owner chart, round picker). */
export type RoundDetail = TaskDetail["rounds"]["edges"][number]["node"];

export type Context = WithContextFields<G.NextContextQuery["nextContext"]>;

type SubmittedExample = NonNullable<Member<G.CreateExampleMutation["createExample"], "ExampleSubmitted">>;
export type ModelPrediction = SubmittedExample["predictions"][number];
export type LabelProbability = NonNullable<ModelPrediction["probabilities"]>[number];

type FullExample = G.ExampleUpdatedSubscription["exampleUpdated"];
type QueueContext = WithContextFields<G.NextExamplesToValidateQuery["nextExamplesToValidate"][number]["context"]>;
/** An example as the documents read it; some lists leave out `assistance`, or add its round or its context. */
export type Example = Omit<FullExample, "assistance"> & {
  assistance?: FullExample["assistance"];
  round?: G.MyExamplesQuery["myExamples"]["edges"][number]["node"]["round"]; // My examples
  context?: Pick<QueueContext, "id"> & Partial<QueueContext>; // the validation queue (with its fields), attempts (id)
};

export type CreateExampleResult = G.CreateExampleMutation["createExample"];
export type ExampleSubmitted = Member<CreateExampleResult, "ExampleSubmitted">;
export type ExampleChangeResult = G.RetractExampleMutation["retractExample"];
export type ExampleChanged = Member<ExampleChangeResult, "ExampleChanged">;
export type ClaimFooledResult = G.ClaimFooledMutation["claimFooled"];
export type FoolingClaimed = Member<ClaimFooledResult, "FoolingClaimed">;
/** The follow-up after the verdict: the task's fooled / not_fooled fields of an example (its `input` holds them). */
export type AnswerFollowUpResult = G.AnswerFollowUpMutation["answerFollowUp"];
export type FollowUpAnswered = Member<AnswerFollowUpResult, "FollowUpAnswered">;

// ---- Validation -------------------------------------------------------------------------------

/** An example in a validator's queue, with the context it was written against. */
export type QueueExample = Example & { context: QueueContext };
/** The live queue's changes (the validate page's own document also reads `waiting`). */
export type ValidationQueueUpdate = Omit<G.ExamplesToValidateSubscription["examplesToValidate"], "added"> & { added: QueueExample[] };
export type ValidateExampleResult = G.ValidateExampleMutation["validateExample"];
export type ExampleValidated = Member<ValidateExampleResult, "ExampleValidated">;

/** `exportRound`'s answer: GET `url` (same origin) before `expiresAt`. */
export type RoundExport = Member<G.ExportRoundMutation["exportRound"], "RoundExport">;

// ---- Models and the leaderboard ---------------------------------------------------------------

export type Model = G.MyModelsQuery["myModels"][number];
export type StatusEntry = NonNullable<Model["statusLog"]>[number];
export type Dataset = G.DatasetsQuery["datasets"][number];

/** The leaderboard as a Relay connection (one page of ranked models). */
export type LeaderboardConnection = G.LeaderboardQuery["leaderboard"];
export type LeaderboardRow = LeaderboardConnection["edges"][number]["node"];
export type MetricValues = LeaderboardRow["metrics"];
export type DatasetOverlap = LeaderboardConnection["datasetOverlap"][number];

/**
 * A `node(id:)` answer read through one inline fragment is that fragment's fields, or an empty object when the id
 * names another type: `key` (a field the fragment selects) tells them apart.
 */
export const isNodeWith = <T extends object>(node: T | Record<PropertyKey, never> | null, key: keyof T): node is T =>
  node !== null && key in node;
