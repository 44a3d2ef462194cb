/** The round's counters, live (roundStats starts with the current numbers, so a resubscribe is a re-read). */
import { useEffect, useState } from "preact/hooks";
import type { RoundSummary } from "../api/types";
import { ROUND_STATS } from "../api/documents";
import { subscribe } from "../api/ws";
import { formatNumber } from "../i18n/format";
import { formatRate } from "../tasks/config";
import { updateRound } from "../tasks/store";
import { ANNOTATE_TEXT as T } from "./text";

export function RoundStats({ taskCode, round }: { taskCode: string; round: RoundSummary }) {
  const [live, setLive] = useState<RoundSummary>(round);
  useEffect(() => {
    setLive(round);
    return subscribe(ROUND_STATS, { roundId: round.id }, (data) => {
      setLive(data.roundStats);
      updateRound(taskCode, data.roundStats);
    });
  }, [round.id]);

  return (
    <section class="card round-stats" aria-labelledby="round-title">
      <h2 id="round-title">{T.roundTitle(live.number)}</h2>
      <dl class="stats">
        <div><dt>{T.statExamples}</dt><dd>{formatNumber(live.totalCollected)}</dd></div>
        <div><dt>{T.statFooled}</dt><dd>{formatNumber(live.totalFooled)}</dd></div>
        <div><dt><abbr title={T.merTitle}>MER</abbr></dt><dd>{formatRate(live.mer)}</dd></div>
        <div><dt><abbr title={T.vmerTitle}>vMER</abbr></dt><dd>{formatRate(live.vmer)}</dd></div>
      </dl>
    </section>
  );
}
