/** The attack success documents (checked against schema.graphql by attack/documents.test.ts). */
import type {
  RoundAttackStatsSubscription, RoundAttackStatsSubscriptionVariables, TaskAttackSuccessQuery,
  TaskAttackSuccessQueryVariables,
} from "../api/generated/types";
import type { Document } from "../api/documents";
import type { RoundSummary } from "../api/types";
import type { AttackSuccessRow } from "./asr";

const doc = <TData, TVariables = Record<string, never>>(source: string) => source as Document<TData, TVariables>;

const ROW_FIELDS = `grouping key collected fooled validatedFooled asr validatedAsr`;

export interface RoundAttackStats extends RoundSummary {
  attackSuccess: AttackSuccessRow[];
}

/** A round's counters with its attack success, live (the first event is the current numbers). */
export const ROUND_ATTACK_STATS = doc<RoundAttackStatsSubscription, RoundAttackStatsSubscriptionVariables>(
  `subscription RoundAttackStats($roundId: ID!) { roundStats(roundId: $roundId) {
    id number mer vmer totalCollected totalFooled endAt attackSuccess { ${ROW_FIELDS} } } }`,
);

export interface RoundAttackSuccess {
  id: string;
  number: number;
  attackSuccess: AttackSuccessRow[];
}

/** Every round's attack success of a task (the task owner page). */
export const TASK_ATTACK_SUCCESS = doc<TaskAttackSuccessQuery, TaskAttackSuccessQueryVariables>(
  `query TaskAttackSuccess($code: String!) { task(code: $code) { id
    rounds(first: 100) { edges { node { id number attackSuccess { ${ROW_FIELDS} } } } } } }`,
);

export const ATTACK_DOCUMENTS = { ROUND_ATTACK_STATS, TASK_ATTACK_SUCCESS };
