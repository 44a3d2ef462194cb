/** The round's counters, live (roundStats starts with the current numbers, so a resubscribe is a re-read). */
import { useEffect, useState } from "preact/hooks";
import type { RoundSummary } from "../api/types";
import { ROUND_STATS } from "../api/documents";
import { subscribe } from "../api/ws";
import { formatRate } from "../tasks/config";
import { updateRound } from "../tasks/store";

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
      <h2 id="round-title">Round {live.number}</h2>
      <dl class="stats">
        <div><dt>Examples</dt><dd>{live.totalCollected}</dd></div>
        <div><dt>Fooled</dt><dd>{live.totalFooled}</dd></div>
        <div><dt><abbr title="Model error rate">MER</abbr></dt><dd>{formatRate(live.mer)}</dd></div>
        <div><dt><abbr title="Validated model error rate">vMER</abbr></dt><dd>{formatRate(live.vmer)}</dd></div>
      </dl>
    </section>
  );
}
