/** Tokens spent on LLM endpoints and their estimated cost, one line per UTC day, endpoint and task, with the totals:
 * every task's for admins (the models page), one task's for its owners (`taskCode`, the task's owner page). */
import { useEffect, useState } from "preact/hooks";
import { describeError, request } from "../../api/client";
import { ADMIN_TEXT } from "../text";
import { GENERATION_USAGE, type UsageReport } from "./documents";
import { formatCost, formatTokens } from "./usage";

const T = ADMIN_TEXT.llm;
const PERIODS = [7, 30, 90] as const;

export function UsageTable({ taskCode, hideWhenEmpty = false }: { taskCode: string | null; hideWhenEmpty?: boolean }) {
  const [days, setDays] = useState<number>(30);
  const [report, setReport] = useState<UsageReport | null>(null);
  const [error, setError] = useState("");
  const id = taskCode ? "task-llm-usage" : "llm-usage";
  useEffect(() => {
    let live = true;
    setError("");
    request(GENERATION_USAGE, { taskCode, days }).then(
      (data) => live && setReport(data.generationUsage),
      (problem) => live && setError(describeError(problem)),
    );
    return () => { live = false; };
  }, [taskCode, days]);

  if (hideWhenEmpty && (error || !report || (report.lines.length === 0 && days === 30))) return null;
  return (
    <section class={taskCode ? "card" : undefined} aria-labelledby={`${id}-title`} data-testid={id}>
      <h2 id={`${id}-title`}>{T.usageTitle}</h2>
      <p class="hint">{taskCode ? T.usageTaskLead : T.usageLead}</p>
      <div class="field">
        <label for={`${id}-days`}>{T.period}</label>
        <select id={`${id}-days`} value={String(days)} onChange={(e) => setDays(Number(e.currentTarget.value))}>
          {PERIODS.map((n) => <option key={n} value={String(n)}>{T.lastDays(n)}</option>)}
        </select>
      </div>
      {error && <p role="alert" class="error">{error}</p>}
      {report === null ? (!error && <p role="status">{ADMIN_TEXT.loading}</p>) : report.lines.length === 0 ? <p>{T.usageNone}</p> : (
        <div class="table-wrap" tabIndex={0} role="region" aria-labelledby={`${id}-caption`}>
          <table>
            <caption id={`${id}-caption`}>{T.usageCaption(report.days)}</caption>
            <thead>
              <tr>
                <th scope="col">{T.day}</th>
                <th scope="col">{T.endpoint}</th>
                {!taskCode && <th scope="col">{T.task}</th>}
                <th scope="col">{T.users}</th>
                <th scope="col">{T.calls}</th>
                <th scope="col">{T.errors}</th>
                <th scope="col">{T.promptTokens}</th>
                <th scope="col">{T.completionTokens}</th>
                <th scope="col">{T.cost}</th>
              </tr>
            </thead>
            <tbody>
              {report.lines.map((line) => (
                <tr key={`${line.day}-${line.endpoint}-${line.taskCode}`} data-endpoint={line.endpoint}>
                  <td dir="ltr">{line.day}</td>
                  <td><bdi>{line.endpoint}</bdi></td>
                  {!taskCode && <td><bdi>{line.taskCode ?? T.goneTask}</bdi></td>}
                  <td>{formatTokens(line.users)}</td>
                  <td>{formatTokens(line.calls)}</td>
                  <td>{formatTokens(line.errors)}</td>
                  <td>{formatTokens(line.promptTokens)}</td>
                  <td>{formatTokens(line.completionTokens)}</td>
                  <td>{formatCost(line.estimatedCost)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row" colSpan={taskCode ? 3 : 4}>{T.total}</th>
                <td>{formatTokens(report.calls)}</td>
                <td>{formatTokens(report.errors)}</td>
                <td>{formatTokens(report.promptTokens)}</td>
                <td>{formatTokens(report.completionTokens)}</td>
                <td data-testid={`${id}-cost`}>{formatCost(report.estimatedCost)}</td>
              </tr>
            </tfoot>
          </table>
        </div>
      )}
    </section>
  );
}
