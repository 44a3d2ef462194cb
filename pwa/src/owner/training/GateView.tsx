/**
 * A judged run's retraining gate: the decision in words, then both comparisons as tables — the held-out examples
 * (count, current vs new error, the paired difference with its 95% interval, McNemar's p) and one row per scoring
 * dataset (current and new error, difference, tolerance, within it or not).
 */
import { formatNumber } from "../../i18n/format";
import type { Gate } from "./documents";
import { formatDifference, formatError, formatInterval, formatP } from "./training";
import { TRAINING_TEXT as T } from "./text";

export function GateView({ gate, id }: { gate: Gate; id: string }) {
  const h = gate.heldOut;
  const interval = formatInterval(h.ciLow, h.ciHigh);
  const yesNo = (value: boolean) => (value ? T.yes : T.no);
  return (
    <section class="training-gate" aria-labelledby={`${id}-gate`} data-testid="gate">
      <h4 id={`${id}-gate`}>{T.gateTitle}</h4>
      <p data-testid="gate-decision" data-passed={gate.passed ? "true" : "false"}>
        <strong>{gate.passed ? T.passed : T.rejected}</strong>
      </p>
      <p class="hint">{T.versions(gate.currentVersion, gate.newVersion)}</p>
      <p dir="auto" data-testid="gate-summary">{gate.summary}</p>
      <div class="table-wrap" tabIndex={0} role="region" aria-labelledby={`${id}-held-out`}>
        <table data-testid="gate-held-out">
          <caption id={`${id}-held-out`}>{T.heldOutCaption}</caption>
          <tbody>
            <tr>
              <th scope="row">{T.colExamples}</th>
              <td class="num" data-testid="held-out-examples">
                {T.examples(h.examples, h.minimum)}
                {!h.enough && <><br /><strong class="error">{T.notEnough}</strong></>}
              </td>
            </tr>
            <tr><th scope="row">{T.colCurrent}</th><td class="num">{formatError(h.currentError)}</td></tr>
            <tr><th scope="row">{T.colNew}</th><td class="num">{formatError(h.newError)}</td></tr>
            <tr><th scope="row">{T.colDifference}</th><td class="num" data-testid="held-out-difference">{formatDifference(h.difference)}</td></tr>
            <tr>
              <th scope="row">{T.colInterval}</th>
              <td class="num" data-testid="held-out-interval">{interval ? T.interval(interval[0], interval[1]) : "—"}</td>
            </tr>
            <tr><th scope="row">{T.colP}</th><td class="num">{formatP(h.mcnemarP)}</td></tr>
            <tr><th scope="row">{T.colChanges}</th><td class="num">{T.changes(h.onlyCurrentWrong, h.onlyNewWrong)}</td></tr>
            <tr><th scope="row">{T.colDecides}</th><td data-testid="held-out-better">{yesNo(h.better)}</td></tr>
          </tbody>
        </table>
      </div>
      {gate.scoring.length === 0 ? <p class="hint">{T.noScoring}</p> : (
        <div class="table-wrap" tabIndex={0} role="region" aria-labelledby={`${id}-scoring`}>
          <table data-testid="gate-scoring">
            <caption id={`${id}-scoring`}>{T.scoringCaption}</caption>
            <thead>
              <tr>
                <th scope="col">{T.colDataset}</th>
                <th scope="col" class="num">{T.colCurrent}</th>
                <th scope="col" class="num">{T.colNew}</th>
                <th scope="col" class="num">{T.colDifference}</th>
                <th scope="col" class="num">{T.colTolerance}</th>
                <th scope="col">{T.colPassed}</th>
              </tr>
            </thead>
            <tbody>
              {gate.scoring.map((s) => (
                <tr key={s.dataset} data-testid="scoring-row">
                  <th scope="row"><bdi>{s.dataset}</bdi></th>
                  <td class="num">{formatError(s.currentError)}</td>
                  <td class="num">{formatError(s.newError)}</td>
                  <td class="num">{formatDifference(s.difference)}</td>
                  <td class="num">{formatNumber(s.tolerance, { style: "percent", maximumFractionDigits: 2 })}</td>
                  <td>{s.passed ? T.yes : <strong class="error">{T.no}</strong>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
