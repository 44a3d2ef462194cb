/**
 * A generative round's counters, live (the chat page's side card): conversations, model failures, ASR and validated
 * ASR, then the attack success per target model and per attack category. `roundStats` starts with the current
 * numbers, so a resubscribe is a re-read.
 */
import { useEffect, useState } from "preact/hooks";
import type { RoundSummary, TaskConfig } from "../api/types";
import { subscribe } from "../api/ws";
import { formatNumber } from "../i18n/format";
import { formatRate } from "../tasks/config";
import { updateRound } from "../tasks/store";
import { AttackTables } from "./AttackTables";
import { ROUND_ATTACK_STATS, type RoundAttackStats as Stats } from "./documents";
import { ATTACK_TEXT as T } from "./text";

export interface RoundAttackStatsProps {
  taskCode: string;
  config: TaskConfig;
  round: RoundSummary;
}

export function RoundAttackStats({ taskCode, config, round }: RoundAttackStatsProps) {
  const [live, setLive] = useState<Stats | null>(null);
  useEffect(() => {
    setLive(null);
    return subscribe(ROUND_ATTACK_STATS, { roundId: round.id }, (data) => {
      setLive(data.roundStats);
      const { attackSuccess: _rows, ...summary } = data.roundStats;
      updateRound(taskCode, summary);
    });
  }, [round.id]);
  const shown: RoundSummary = live ?? round;

  return (
    <section class="card round-stats round-attack" aria-labelledby="round-title" data-testid="round-attack">
      <h2 id="round-title">{T.roundTitle(shown.number)}</h2>
      <dl class="stats">
        <div><dt>{T.statConversations}</dt><dd>{formatNumber(shown.totalCollected)}</dd></div>
        <div><dt>{T.statFailed}</dt><dd>{formatNumber(shown.totalFooled)}</dd></div>
        <div><dt><abbr title={T.asrTitle}>ASR</abbr></dt><dd data-testid="round-asr">{formatRate(shown.mer)}</dd></div>
        <div><dt><abbr title={T.vasrTitle}>vASR</abbr></dt><dd data-testid="round-vasr">{formatRate(shown.vmer)}</dd></div>
      </dl>
      {live ? <AttackTables rows={live.attackSuccess} config={config} idBase="round-attack" /> : <p class="hint" role="status">{T.loading}</p>}
    </section>
  );
}
