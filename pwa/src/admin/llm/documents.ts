/** GraphQL documents of LLM endpoints (admins), their usage (admins; a task's owners) and the endpoints a task's owners
 * may choose as a round's target, checked by documents.test.ts. */
import type {
  LlmEndpointsQuery, LlmEndpointsQueryVariables, RegisterLlmEndpointMutation, RegisterLlmEndpointMutationVariables,
  UpdateLlmEndpointMutation, UpdateLlmEndpointMutationVariables, RemoveLlmEndpointMutation,
  RemoveLlmEndpointMutationVariables, GenerationUsageQuery, GenerationUsageQueryVariables, LlmEndpointChoicesQuery,
  LlmEndpointChoicesQueryVariables,
} from "../../api/generated/types";
import type { Document } from "../../api/documents";
import type { ErrorResult } from "../../api/types";

const doc = <TData, TVariables = Record<string, never>>(source: string) => source as Document<TData, TVariables>;

const ERROR_FIELDS = "__typename ... on Error { code message } ... on InputError { fields { field message } }";

/** An endpoint as the API shows it: the key itself never comes back, only whether one is stored. */
export interface LlmEndpoint {
  name: string;
  baseUrl: string;
  model: string;
  hasKey: boolean;
  timeoutS: number;
  maxConcurrency: number;
  tokensPerUserPerDay: number;
  tokensPerTaskPerDay: number;
  pricePer1kPromptTokens: number;
  pricePer1kCompletionTokens: number;
  enabled: boolean;
}

const ENDPOINT_FIELDS = `name baseUrl model hasKey timeoutS maxConcurrency tokensPerUserPerDay tokensPerTaskPerDay
  pricePer1kPromptTokens pricePer1kCompletionTokens enabled`;

/** The settings a form sends (the name is the endpoint's identity; the key only when it is given). */
export interface EndpointSettings {
  baseUrl: string;
  model: string;
  timeoutS: number;
  maxConcurrency: number;
  tokensPerUserPerDay: number;
  tokensPerTaskPerDay: number;
  pricePer1kPromptTokens: number;
  pricePer1kCompletionTokens: number;
  enabled: boolean;
}

export type RegisterInput = EndpointSettings & { name: string; apiKey: string };
/** apiKey: left out keeps the stored key, "" clears it, a value replaces it. */
export type UpdateInput = Partial<EndpointSettings> & { name: string; apiKey?: string };

export const LLM_ENDPOINTS = doc<LlmEndpointsQuery, LlmEndpointsQueryVariables>(`query LlmEndpoints { llmEndpoints { ${ENDPOINT_FIELDS} } }`);

export type EndpointResult<T extends string> = { __typename: T; endpoint: LlmEndpoint } | ErrorResult;

export const REGISTER_LLM_ENDPOINT = doc<RegisterLlmEndpointMutation, RegisterLlmEndpointMutationVariables>(
  `mutation RegisterLlmEndpoint($input: RegisterLlmEndpointInput!) { registerLlmEndpoint(input: $input) {
    ${ERROR_FIELDS} ... on LlmEndpointRegistered { endpoint { ${ENDPOINT_FIELDS} } } } }`,
);

export const UPDATE_LLM_ENDPOINT = doc<UpdateLlmEndpointMutation, UpdateLlmEndpointMutationVariables>(
  `mutation UpdateLlmEndpoint($input: UpdateLlmEndpointInput!) { updateLlmEndpoint(input: $input) {
    ${ERROR_FIELDS} ... on LlmEndpointUpdated { endpoint { ${ENDPOINT_FIELDS} } } } }`,
);

export const REMOVE_LLM_ENDPOINT = doc<RemoveLlmEndpointMutation, RemoveLlmEndpointMutationVariables>(
  `mutation RemoveLlmEndpoint($name: String!) { removeLlmEndpoint(name: $name) {
    __typename ... on Error { code message } ... on LlmEndpointRemoved { name } } }`,
);

export interface UsageLine {
  day: string;
  endpoint: string;
  taskCode: string | null;
  users: number;
  calls: number;
  errors: number;
  promptTokens: number;
  completionTokens: number;
  estimatedCost: number;
}

export interface UsageReport {
  days: number;
  lines: UsageLine[];
  promptTokens: number;
  completionTokens: number;
  calls: number;
  errors: number;
  estimatedCost: number;
}

export const GENERATION_USAGE = doc<GenerationUsageQuery, GenerationUsageQueryVariables>(
  `query GenerationUsage($taskCode: String, $days: Int!) { generationUsage(taskCode: $taskCode, days: $days) {
    days promptTokens completionTokens calls errors estimatedCost
    lines { day endpoint taskCode users calls errors promptTokens completionTokens estimatedCost } } }`,
);

/** An enabled endpoint a generative task's owners may name as a round's target: no address, key or prices. */
export interface LlmEndpointChoice {
  name: string;
  model: string;
  timeoutS: number;
  tokensPerUserPerDay: number;
  tokensPerTaskPerDay: number;
}

export const LLM_ENDPOINT_CHOICES = doc<LlmEndpointChoicesQuery, LlmEndpointChoicesQueryVariables>(
  `query LlmEndpointChoices($taskCode: String!) { llmEndpointChoices(taskCode: $taskCode) {
    name model timeoutS tokensPerUserPerDay tokensPerTaskPerDay } }`,
);

export const LLM_DOCUMENTS = {
  LLM_ENDPOINTS,
  REGISTER_LLM_ENDPOINT,
  UPDATE_LLM_ENDPOINT,
  REMOVE_LLM_ENDPOINT,
  GENERATION_USAGE,
  LLM_ENDPOINT_CHOICES,
};
