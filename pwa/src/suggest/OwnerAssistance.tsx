/**
 * The task owner page: each round's fooling rate, validated fooling rate and median time to a fooling example, for
 * examples written with and without a suggestion (Round.assistance, docs/design.md §4.1e), newest round first.
 */
import { useEffect, useState } from "preact/hooks";
import { describeError, request } from "../api/client";
import { formatNumber } from "../i18n/format";
import { formatRate } from "../tasks/config";
import { TASK_ASSISTANCE, type RoundAssistance } from "./documents";
import { seconds, sides } from "./suggest";
import { SUGGEST_TEXT as T } from "./text";
import "./suggest.css";

export interface OwnerAssistanceProps {
  code: string;
  /** Changes when the page re-reads its task (a round opened or closed): read again. */
  version?: unknown;
}

export function OwnerAssistance({ code, version }: OwnerAssistanceProps) {
  const [rounds, setRounds] = useState<RoundAssistance[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let cancelled = false;
    request(TASK_ASSISTANCE, { code }).then(
      ({ task }) => {
        if (cancelled) return;
        setError(null);
        setRounds([...(task?.rounds.edges.map((e) => e.node) ?? [])].sort((a, b) => b.number - a.number));
      },
      (problem) => !cancelled && setError(describeError(problem)),
    );
    return () => {
      cancelled = true;
    };
  }, [code, version]);

  return (
    <section class="card" aria-labelledby="assistance-title" data-testid="owner-assistance">
      <h2 id="assistance-title">{T.ownerTitle}</h2>
      {error && <p class="error" role="alert">{error}</p>}
      {rounds === null ? !error && <p role="status">{T.loading}</p> : rounds.map((round) => (
        <div key={round.id} class="table-wrap" tabIndex={0} role="region" aria-label={T.caption(round.number)} data-testid={`assistance-round-${round.number}`}>
          <table>
            <caption>{T.roundHeading(round.number)}</caption>
            <thead><tr><th scope="col">{T.colWho}</th><th scope="col" class="num">{T.colCollected}</th><th scope="col" class="num">{T.colRate}</th>
              <th scope="col" class="num">{T.colValidated}</th><th scope="col" class="num">{T.colMedian}</th></tr></thead>
            <tbody>
              {sides(round.assistance).map((row) => {
                const median = seconds(row.medianMsToFool);
                return (
                  <tr key={String(row.assisted)} data-testid={row.assisted ? "assisted-row" : "unassisted-row"}>
                    <th scope="row">{row.assisted ? T.rowAssisted : T.rowUnassisted}{row.assisted && row.edited > 0 && <span class="hint"> ({T.edited(row.edited)})</span>}</th>
                    <td class="num">{formatNumber(row.collected)}</td>
                    <td class="num">{formatRate(row.foolingRate)}</td>
                    <td class="num">{formatRate(row.validatedFoolingRate)}</td>
                    <td class="num">{median === null ? T.noValue : T.seconds(median)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ))}
    </section>
  );
}
