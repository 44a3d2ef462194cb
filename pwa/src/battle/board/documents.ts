/** The battle leaderboard's GraphQL documents (checked against schema.graphql by board.test.ts). */
import type {
  BattleBoardTaskQuery, BattleBoardTaskQueryVariables, BattleBoardQuery, BattleBoardQueryVariables,
} from "../../api/generated/types";
import type { Document } from "../../api/documents";

const doc = <TData, TVariables = Record<string, never>>(source: string) => source as Document<TData, TVariables>;

export interface BoardTask {
  name: string;
  rounds: { edges: { node: { id: string; number: number } }[] };
}

export const BOARD_TASK = doc<BattleBoardTaskQuery, BattleBoardTaskQueryVariables>(
  `query BattleBoardTask($code: String!) { task(code: $code) { name rounds(first: 100) { edges { node { id number } } } } }`,
);

export const BATTLE_BOARD = doc<BattleBoardQuery, BattleBoardQueryVariables>(
  `query BattleBoard($code: String!, $roundId: ID) { battleLeaderboard(taskCode: $code, roundId: $roundId) {
    votes rounds seed ballots countedBallots flaggedVoters pausedVoters repeats
    positionBias { sides label picked decisive share lower upper chance }
    winRate models { name rating lower upper rank stability topShare battles wins losses ties bothBad } } }`,
);

export const BOARD_DOCUMENTS = { BOARD_TASK, BATTLE_BOARD };
