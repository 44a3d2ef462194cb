/** The crowd-campaign types the join flow and the owner pages read (see ../../../schema.graphql). */
import type { FieldError } from "../api/types";

export type CrowdPlatform = "PROLIFIC" | "MTURK" | "OPEN";
export type CampaignStatus = "DRAFT" | "OPEN" | "CLOSED";
export type WorkerStage = "CONSENT" | "QUIZ" | "WORK" | "DONE" | "SCREENED_OUT";

export interface QuizQuestion {
  id: string;
  prompt: string;
  choices: string[];
}

/** The public join page of a campaign: never the answers, the pay rules or the codes. */
export interface CampaignPage {
  id: string;
  code: string;
  title: string;
  platform: CrowdPlatform;
  consentHtml: string;
  instructionsHtml: string;
  quiz: QuizQuestion[];
  quizPassMark: number | null;
  taskCode: string;
  roundId: string;
}

export interface CampaignWorkerState {
  campaign: CampaignPage;
  stage: WorkerStage;
  quizAttemptsLeft: number;
  examplesLeft: number | null;
  validationsLeft: number | null;
  examplesLeftToday: number | null;
  validationsLeftToday: number | null;
  quotaDone: boolean;
  earnedCents: number;
  pendingCents: number;
  currency: string;
}

export interface CompletionInfo {
  code: string;
  screenedOut: boolean;
  method: string | null;
  url: string | null;
  fields: { name: string; value: string }[];
}

export interface CampaignError {
  __typename: "InputError" | "NotFoundError" | "ConflictError" | "RateLimitedError" | "AuthenticationError" | "PermissionError";
  code: string;
  message: string;
  fields?: FieldError[];
}

export type JoinResult =
  | { __typename: "CampaignJoined"; token: string; state: CampaignWorkerState }
  | { __typename: "CampaignPreview"; campaign: CampaignPage }
  | CampaignError;

export type ConsentResult = { __typename: "ConsentGiven"; state: CampaignWorkerState } | CampaignError;

export type QuizResult =
  | {
      __typename: "QuizGraded";
      passed: boolean;
      score: number;
      total: number;
      attemptsLeft: number;
      state: CampaignWorkerState;
      completion: CompletionInfo | null;
    }
  | CampaignError;

export type FinishResult = { __typename: "CampaignFinished"; completion: CompletionInfo; state: CampaignWorkerState } | CampaignError;
