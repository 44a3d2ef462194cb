/** The join flow's GraphQL documents (checked against schema.graphql by documents.test.ts). */
import type {
  JoinCampaignMutation, JoinCampaignMutationVariables, GiveConsentMutation, GiveConsentMutationVariables,
  SubmitQuizMutation, SubmitQuizMutationVariables, FinishCampaignMutation, FinishCampaignMutationVariables,
  MyCampaignWorkQuery, MyCampaignWorkQueryVariables, CampaignByCodeQuery, CampaignByCodeQueryVariables,
} from "../api/generated/types";
import type { Document } from "../api/documents";

const doc = <TData, TVariables = Record<string, never>>(source: string) => source as Document<TData, TVariables>;

const ERROR_FIELDS = `__typename ... on Error { code message } ... on InputError { fields { field message } }`;

export const PAGE_FIELDS = `id code title platform consentHtml instructionsHtml quizPassMark taskCode roundId
  quiz { id prompt choices }`;

export const STATE_FIELDS = `campaign { ${PAGE_FIELDS} } stage quizAttemptsLeft examplesLeft validationsLeft
  examplesLeftToday validationsLeftToday quotaDone earnedCents pendingCents currency`;

const COMPLETION_FIELDS = `code screenedOut method url fields { name value }`;

export interface JoinInput {
  code: string;
  params: { name: string; value: string }[];
  clientId: string;
}

export const JOIN_CAMPAIGN = doc<JoinCampaignMutation, JoinCampaignMutationVariables>(
  `mutation JoinCampaign($input: JoinCampaignInput!) { joinCampaign(input: $input) { ${ERROR_FIELDS}
    ... on CampaignJoined { token state { ${STATE_FIELDS} } }
    ... on CampaignPreview { campaign { ${PAGE_FIELDS} } } } }`,
);

export const GIVE_CONSENT = doc<GiveConsentMutation, GiveConsentMutationVariables>(
  `mutation GiveConsent($campaignId: ID!) { giveConsent(campaignId: $campaignId) { ${ERROR_FIELDS}
    ... on ConsentGiven { state { ${STATE_FIELDS} } } } }`,
);

export const SUBMIT_QUIZ = doc<SubmitQuizMutation, SubmitQuizMutationVariables>(
  `mutation SubmitQuiz($campaignId: ID!, $answers: [QuizAnswer!]!) { submitQuiz(campaignId: $campaignId, answers: $answers) {
    ${ERROR_FIELDS} ... on QuizGraded { passed score total attemptsLeft state { ${STATE_FIELDS} }
    completion { ${COMPLETION_FIELDS} } } } }`,
);

export const FINISH_CAMPAIGN = doc<FinishCampaignMutation, FinishCampaignMutationVariables>(
  `mutation FinishCampaign($campaignId: ID!) { finishCampaign(campaignId: $campaignId) { ${ERROR_FIELDS}
    ... on CampaignFinished { completion { ${COMPLETION_FIELDS} } state { ${STATE_FIELDS} } } } }`,
);

export const MY_CAMPAIGN_WORK = doc<MyCampaignWorkQuery, MyCampaignWorkQueryVariables>(
  `query MyCampaignWork($campaignId: ID!) { myCampaignWork(campaignId: $campaignId) { ${STATE_FIELDS} } }`,
);

export const CAMPAIGN_BY_CODE = doc<CampaignByCodeQuery, CampaignByCodeQueryVariables>(
  `query CampaignByCode($code: String!) { campaignByCode(code: $code) { ${PAGE_FIELDS} } }`,
);

export const JOIN_DOCUMENTS = { JOIN_CAMPAIGN, GIVE_CONSENT, SUBMIT_QUIZ, FINISH_CAMPAIGN, MY_CAMPAIGN_WORK, CAMPAIGN_BY_CODE };
