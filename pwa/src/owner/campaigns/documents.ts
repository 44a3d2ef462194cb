/** The owners' campaign documents (checked against schema.graphql by join/documents.test.ts). */
import type {
  CampaignsQuery, CampaignsQueryVariables, CampaignQuery, CampaignQueryVariables, CreateCampaignMutation,
  CreateCampaignMutationVariables, UpdateCampaignMutation, UpdateCampaignMutationVariables, ImportApprovedMutation,
  ImportApprovedMutationVariables, ExportPayoutsMutation, ExportPayoutsMutationVariables, TaskQualityQuery,
  TaskQualityQueryVariables, ReinstateValidatorMutation, ReinstateValidatorMutationVariables,
} from "../../api/generated/types";
import type { Document } from "../../api/documents";
import type { CampaignError, CampaignStatus, CrowdPlatform } from "../../join/types";
import type { CampaignSettings } from "./form";
import type { CampaignProgress } from "./progress";

const doc = <TData, TVariables = Record<string, never>>(source: string) => source as Document<TData, TVariables>;

const ERROR_FIELDS = `__typename ... on Error { code message } ... on InputError { fields { field message } }`;

export interface CampaignLedger {
  totalCents: number;
  pendingCents: number;
  exportedCents: number;
  workers: number;
  unmatched: string[];
}

export interface Campaign extends CampaignSettings {
  id: string;
  code: string;
  roundId: string;
  platform: CrowdPlatform;
  status: CampaignStatus;
  ledger: CampaignLedger;
  progress: CampaignProgress;
}

const CAMPAIGN_FIELDS = `id title platform status code roundId consent instructions quiz { id prompt choices answer }
  quizPassMark quizAttempts quotas { examplesPerDay examplesPerCampaign validationsPerDay validationsPerCampaign exampleBudget }
  currency baseCents foolingBonusCents agreementBonusCents bonusCapCents completionCode failureCode completionRedirect
  ledger { totalCents pendingCents exportedCents workers unmatched }
  progress { joined consented quizPassed quizFailed finished examples fooling validatedFooling validations }`;

export type SaveResult = { __typename: "CampaignSaved"; campaign: Campaign } | CampaignError;

export const CAMPAIGNS = doc<CampaignsQuery, CampaignsQueryVariables>(
  `query Campaigns($taskCode: String!) { campaigns(taskCode: $taskCode, first: 100) { ${CAMPAIGN_FIELDS} } }`,
);

export const CAMPAIGN = doc<CampaignQuery, CampaignQueryVariables>(
  `query Campaign($id: ID!) { campaign(id: $id) { ${CAMPAIGN_FIELDS} } }`,
);

export const CREATE_CAMPAIGN = doc<CreateCampaignMutation, CreateCampaignMutationVariables>(
  `mutation CreateCampaign($taskCode: String!, $input: CampaignInput!) { createCampaign(taskCode: $taskCode, input: $input) {
    ${ERROR_FIELDS} ... on CampaignSaved { campaign { ${CAMPAIGN_FIELDS} } } } }`,
);

export const UPDATE_CAMPAIGN = doc<UpdateCampaignMutation, UpdateCampaignMutationVariables>(
  `mutation UpdateCampaign($campaignId: ID!, $input: CampaignInput!) { updateCampaign(campaignId: $campaignId, input: $input) {
    ${ERROR_FIELDS} ... on CampaignSaved { campaign { ${CAMPAIGN_FIELDS} } } } }`,
);

export type ImportResult =
  | { __typename: "ApprovedImported"; matched: number; unmatchedWorkers: string[]; unknown: number; notApproved: number; problems: string[] }
  | CampaignError;

export const IMPORT_APPROVED = doc<ImportApprovedMutation, ImportApprovedMutationVariables>(
  `mutation ImportApproved($campaignId: ID!, $file: Upload!) { importApprovedSubmissions(campaignId: $campaignId, file: $file) {
    ${ERROR_FIELDS} ... on ApprovedImported { matched unmatchedWorkers unknown notApproved problems } } }`,
);

export type ExportResult =
  | { __typename: "PayoutsExported"; csv: string; totalCents: number; workers: number; unpaidWorkers: number }
  | CampaignError;

export const EXPORT_PAYOUTS = doc<ExportPayoutsMutation, ExportPayoutsMutationVariables>(
  `mutation ExportPayouts($campaignId: ID!, $format: PayoutFormat!) { exportPayouts(campaignId: $campaignId, format: $format) {
    ${ERROR_FIELDS} ... on PayoutsExported { csv totalCents workers unpaidWorkers } } }`,
);

export interface ValidatorQuality {
  username: string;
  votes: number;
  goldAnswered: number;
  goldCorrect: number;
  goldAccuracy: number | null;
  paused: boolean;
  reliability: number | null;
  reinstatedAt: string | null;
}

const VALIDATOR_FIELDS = "username votes goldAnswered goldCorrect goldAccuracy paused reliability reinstatedAt";

export const TASK_QUALITY = doc<TaskQualityQuery, TaskQualityQueryVariables>(
  `query TaskQuality($taskCode: String!) { taskQuality(taskCode: $taskCode) { duplicatesRefused
    validators { ${VALIDATOR_FIELDS} } } }`,
);

export type ReinstateResult = { __typename: "ValidatorReinstated"; validator: ValidatorQuality } | CampaignError;

export const REINSTATE_VALIDATOR = doc<ReinstateValidatorMutation, ReinstateValidatorMutationVariables>(
  `mutation ReinstateValidator($taskCode: String!, $username: String!) { reinstateValidator(taskCode: $taskCode, username: $username) {
    ${ERROR_FIELDS} ... on ValidatorReinstated { validator { ${VALIDATOR_FIELDS} } } } }`,
);

export const OWNER_CAMPAIGN_DOCUMENTS = {
  CAMPAIGNS, CAMPAIGN, CREATE_CAMPAIGN, UPDATE_CAMPAIGN, IMPORT_APPROVED, EXPORT_PAYOUTS, TASK_QUALITY, REINSTATE_VALIDATOR,
};
