/** The battle's GraphQL documents (checked against schema.graphql by battle/documents.test.ts). */
import type {
  BattleQuery, BattleQueryVariables, StartBattleMutation, StartBattleMutationVariables, VoteBattleMutation,
  VoteBattleMutationVariables, ContinueBattleMutation, ContinueBattleMutationVariables,
} from "../api/generated/types";
import type { Document } from "../api/documents";
import type { Battle, BattleChoice } from "./battle";
import type { Conversation } from "../chat/stream";

const doc = <TData, TVariables = Record<string, never>>(source: string) => source as Document<TData, TVariables>;

const BASE_ERROR_FIELDS = `__typename ... on Error { code message } ... on InputError { fields { field message } }`;
const ERROR_FIELDS = `${BASE_ERROR_FIELDS} ... on RateLimitedError { retryAfterSeconds }`;
const BATTLE_FIELDS = `id roundId contextId prompt createdAt choices votable vote { choice createdAt } ratingField
  sides { label turnId reply status error modelName modelVersion rating continuable conversationId }`;

export interface BattleStarted {
  __typename: "BattleStarted";
  duplicate: boolean;
  battle: Battle;
}

export interface BattleVoted {
  __typename: "BattleVoted";
  duplicate: boolean;
  battle: Battle;
}

export interface StartBattleInput {
  roundId: string;
  contextId: string;
  clientId: string;
  message: string;
}

export interface VoteBattleInput {
  battleId: string;
  clientId: string;
  /** Null only with ratings: the server takes the side rated highest (equal ratings: a tie). */
  choice: BattleChoice | null;
  /** A task with a rating field: each side's rating, in side order. */
  ratings: number[] | null;
}

export interface BattleContinued {
  __typename: "BattleContinued";
  duplicate: boolean;
  battle: Battle;
  conversation: Pick<Conversation, "id">;
}

export interface ContinueBattleInput {
  battleId: string;
  clientId: string;
  side: string;
}

export const BATTLE = doc<BattleQuery, BattleQueryVariables>(`query Battle($id: ID!) { battle(id: $id) { ${BATTLE_FIELDS} } }`);

export const START_BATTLE = doc<StartBattleMutation, StartBattleMutationVariables>(
  `mutation StartBattle($input: StartBattleInput!) { startBattle(input: $input) { ${ERROR_FIELDS}
    ... on BattleStarted { duplicate battle { ${BATTLE_FIELDS} } } } }`,
);

export const VOTE_BATTLE = doc<VoteBattleMutation, VoteBattleMutationVariables>(
  `mutation VoteBattle($input: VoteBattleInput!) { voteBattle(input: $input) { ${ERROR_FIELDS}
    ... on BattleVoted { duplicate battle { ${BATTLE_FIELDS} } } } }`,
);

export const CONTINUE_BATTLE = doc<ContinueBattleMutation, ContinueBattleMutationVariables>(
  `mutation ContinueBattle($input: ContinueBattleInput!) { continueBattle(input: $input) { ${BASE_ERROR_FIELDS}
    ... on BattleContinued { duplicate conversation { id } battle { ${BATTLE_FIELDS} } } } }`,
);

export const BATTLE_DOCUMENTS = { BATTLE, START_BATTLE, VOTE_BATTLE, CONTINUE_BATTLE };
