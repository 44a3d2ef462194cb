/** Task owners: near-duplicates refused and each validator's gold accuracy and pause state (taskQuality). */
import { useEffect, useState } from "preact/hooks";
import { describeError, request } from "../../api/client";
import { reconnected } from "../../lib/network";
import { TASK_QUALITY, type ValidatorQuality } from "./documents";
import { CAMPAIGN_TEXT as T } from "./text";

const percent = (value: number | null) => (value === null ? "—" : `${Math.round(value * 100)}%`);

export function QualityPanel({ taskCode }: { taskCode: string }) {
  const [quality, setQuality] = useState<{ duplicatesRefused: number; validators: ValidatorQuality[] } | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function load() {
    try {
      setQuality((await request(TASK_QUALITY, { taskCode })).taskQuality);
      setError(null);
    } catch (problem) {
      setError(describeError(problem));
    }
  }
  useEffect(() => {
    void load();
    return reconnected.on(() => void load());
  }, [taskCode]);

  return (
    <section class="card" aria-labelledby="quality-title" data-testid="quality">
      <h2 id="quality-title">{T.quality}</h2>
      {error && <p role="alert" class="error">{error}</p>}
      {!quality ? (
        !error && <p role="status">{T.loading}</p>
      ) : (
        <>
          <p>{T.duplicatesRefused(quality.duplicatesRefused)}</p>
          {quality.validators.length === 0 ? (
            <p>{T.noValidators}</p>
          ) : (
            <div class="table-wrap" tabIndex={0} role="region" aria-labelledby="quality-caption">
              <table>
                <caption id="quality-caption">{T.validatorsCaption}</caption>
                <thead>
                  <tr><th scope="col">{T.validator}</th><th scope="col">{T.votes}</th><th scope="col">{T.gold}</th><th scope="col">{T.accuracy}</th><th scope="col">{T.pausedHead}</th></tr>
                </thead>
                <tbody>
                  {quality.validators.map((v) => (
                    <tr key={v.username}>
                      <th scope="row">{v.username}</th>
                      <td>{v.votes}</td>
                      <td>{v.goldCorrect} / {v.goldAnswered}</td>
                      <td>{percent(v.goldAccuracy)}</td>
                      <td>{v.paused ? T.paused : T.active}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </section>
  );
}
