/** The suggestions documents (checked against schema.graphql by suggest/documents.test.ts). */
import type {
  SuggestExamplesMutation, SuggestExamplesMutationVariables, TaskAssistanceQuery, TaskAssistanceQueryVariables,
} from "../api/generated/types";
import type { Document } from "../api/documents";
import type { ReadJson } from "../api/types";

const doc = <TData, TVariables = Record<string, never>>(source: string) => source as Document<TData, TVariables>;

export type { SuggestionKind } from "../api/generated/types";

/** A suggestion's `fields` (JSON): the texts it proposes by input field name. */
type Suggested = ReadJson<SuggestExamplesMutation, "fields", Record<string, string>>;
export type SuggestResult = Suggested["suggestExamples"];
export type Suggestion = Extract<SuggestResult, { __typename: "SuggestionsIssued" }>["suggestions"][number];

export const SUGGEST_EXAMPLES = doc<Suggested, SuggestExamplesMutationVariables>(
  `mutation SuggestExamples($input: SuggestExamplesInput!) { suggestExamples(input: $input) { __typename
    ... on SuggestionsIssued { suggestions { id kind source fields label target { label confidence flipped edits } } }
    ... on InputError { fields { field message } }
    ... on Error { code message } } }`,
);

export type RoundAssistance = NonNullable<TaskAssistanceQuery["task"]>["rounds"]["edges"][number]["node"];
export type AssistanceRow = RoundAssistance["assistance"][number];

/** Every round's numbers with and without suggestions (the task owner page). */
export const TASK_ASSISTANCE = doc<TaskAssistanceQuery, TaskAssistanceQueryVariables>(
  `query TaskAssistance($code: String!) { task(code: $code) { id
    rounds(first: 100) { edges { node { id number
      assistance { assisted collected fooled validatedFooled foolingRate validatedFoolingRate medianMsToFool edited } } } } } }`,
);

export const SUGGEST_DOCUMENTS = { SUGGEST_EXAMPLES, TASK_ASSISTANCE };
