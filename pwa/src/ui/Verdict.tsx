/** Verdict badge and the model's probability bars, shared by the annotate, examples and outbox pages. */
import type { LabelProbability, Verdict } from "../api/types";
import { formatPercent } from "../i18n/format";
import { humanize } from "../tasks/config";
import { ANNOTATE_TEXT } from "../annotate/text";
import { VERDICT_TEXT } from "../annotate/verdict";

export function VerdictBadge({ verdict, queued = false }: { verdict: Verdict | null; queued?: boolean }) {
  if (queued) return <span class="badge badge-queued">{ANNOTATE_TEXT.waitingToSync}</span>;
  if (!verdict) return null;
  return <span class={`badge badge-${verdict.toLowerCase()}`} data-verdict={verdict}>{VERDICT_TEXT[verdict]}</span>;
}

export function ProbabilityBars({ probabilities, chosen, caption }: {
  probabilities: LabelProbability[];
  chosen: string | null;
  caption: string;
}) {
  if (!probabilities.length) return null;
  return (
    <figure class="probs">
      <figcaption>{caption}</figcaption>
      <ul class="prob-list">
        {probabilities.map((p) => {
          const percent = Math.round(p.probability * 1000) / 10;
          const name = humanize(p.label);
          return (
            <li class={`prob-row${p.label === chosen ? " prob-chosen" : ""}`} key={p.label} data-label={p.label}>
              <span class="prob-label" id={`prob-${p.label}`}>{name}</span>
              <span
                class="prob-bar"
                role="meter"
                aria-labelledby={`prob-${p.label}`}
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={percent}
                aria-valuetext={formatPercent(percent / 100)}
              >
                <span class="prob-fill" style={{ width: `${Math.max(0, Math.min(100, percent))}%` }} />
              </span>
              <span class="prob-value" aria-hidden="true">{formatPercent(percent / 100)}</span>
            </li>
          );
        })}
      </ul>
    </figure>
  );
}
