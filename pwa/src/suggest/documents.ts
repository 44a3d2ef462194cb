/** The suggestions documents (checked against schema.graphql by suggest/documents.test.ts). */
import type { Document } from "../api/documents";

const doc = <TData, TVariables = Record<string, never>>(source: string) => source as Document<TData, TVariables>;

export type SuggestionKind = "GENERATOR" | "PERTURBATION";

export interface Suggestion {
  id: string;
  kind: SuggestionKind;
  source: string;
  fields: Record<string, string>;
  label: string | null;
  target: { label: string; confidence: number; flipped: boolean; edits: string[] } | null;
}

export type SuggestResult =
  | { __typename: "SuggestionsIssued"; suggestions: Suggestion[] }
  | { __typename: string; code?: string; message: string; fields?: { field: string; message: string }[] };

export const SUGGEST_EXAMPLES = doc<
  { suggestExamples: SuggestResult },
  { input: { roundId: string; contextId: string; kind: SuggestionKind; clientId: string; fields: Record<string, unknown> | null } }
>(
  `mutation SuggestExamples($input: SuggestExamplesInput!) { suggestExamples(input: $input) { __typename
    ... on SuggestionsIssued { suggestions { id kind source fields label target { label confidence flipped edits } } }
    ... on InputError { fields { field message } }
    ... on Error { code message } } }`,
);

export interface AssistanceRow {
  assisted: boolean;
  collected: number;
  fooled: number;
  validatedFooled: number;
  foolingRate: number | null;
  validatedFoolingRate: number | null;
  medianMsToFool: number | null;
  edited: number;
}

export interface RoundAssistance {
  id: string;
  number: number;
  assistance: AssistanceRow[];
}

/** Every round's numbers with and without suggestions (the task owner page). */
export const TASK_ASSISTANCE = doc<
  { task: { id: string; rounds: { edges: { node: RoundAssistance }[] } } | null },
  { code: string }
>(
  `query TaskAssistance($code: String!) { task(code: $code) { id
    rounds(first: 100) { edges { node { id number
      assistance { assisted collected fooled validatedFooled foolingRate validatedFoolingRate medianMsToFool edited } } } } } }`,
);

export const SUGGEST_DOCUMENTS = { SUGGEST_EXAMPLES, TASK_ASSISTANCE };
