/** The models pages' own GraphQL documents (checked against schema.graphql by documents.test.ts). */
import type {
  ModelWatchSubscription, ModelWatchSubscriptionVariables, ModelContractQuery, ModelContractQueryVariables,
} from "../api/generated/types";
import type { Document } from "../api/documents";
import type { Model } from "../api/types";

const doc = <TData, TVariables = Record<string, never>>(source: string) => source as Document<TData, TVariables>;

export interface ModelScore {
  dataset: { id: string; name: string };
  perf: number;
  throughput: number | null;
  memoryGb: number | null;
  robustness: number | null;
  fairness: number | null;
}

export type WatchedModel = Model & { scores: ModelScore[] };

/** One model, as it is now and after every change, with its scores per scoring dataset (owner only for the log). */
export const MODEL_WATCH = doc<ModelWatchSubscription, ModelWatchSubscriptionVariables>(
  `subscription ModelWatch($modelId: ID!) { modelUpdated(modelId: $modelId) {
    id name card status published anonymous createdAt retrainedFromId statusLog { at status message } owner { username }
    task { code name } inTheLoop scores { dataset { id name } perf throughput memoryGb robustness fairness } } }`,
);

export interface ContractTensor { name: string; dataType: string; dims: number[]; meaning: string }
export interface ModelContract {
  kind: string;
  inputs: ContractTensor[];
  outputs: ContractTensor[];
  labels: string[];
  configPbtxt: string;
  exampleArchiveName: string;
  exampleArchiveBase64: string;
}

/** What a model of the task must declare, with an example archive that passes the upload checks as it is. */
export const MODEL_CONTRACT = doc<ModelContractQuery, ModelContractQueryVariables>(
  `query ModelContract($taskCode: String!) { modelContract(taskCode: $taskCode) {
    kind labels configPbtxt exampleArchiveName exampleArchiveBase64
    inputs { name dataType dims meaning } outputs { name dataType dims meaning } } }`,
);

export const MODELS_DOCUMENTS: Record<string, string> = { MODEL_WATCH, MODEL_CONTRACT };
