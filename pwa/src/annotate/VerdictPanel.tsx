/**
 * The model's answer and the verdict, live: the model's label, a probability bar per label,
 * FOOLED / NOT_FOOLED / PENDING with the message; then try again, and the attempts on this context (children)
 * with retract, flag, explain and "which words mattered" on each.
 * A pending verdict follows `exampleUpdated` and is re-read after every reconnect.
 */
import type { ComponentChildren } from "preact";
import { useEffect, useRef } from "preact/hooks";
import { request } from "../api/client";
import { EXAMPLE_NODE, EXAMPLE_UPDATED } from "../api/documents";
import { isNodeWith, type Example } from "../api/types";
import { subscribe } from "../api/ws";
import { reconnected } from "../lib/network";
import { formatPercent } from "../i18n/format";
import { humanize } from "../tasks/config";
import { ProbabilityBars, VerdictBadge } from "../ui/Verdict";
import type { FieldSpec } from "../forms/specs";
import { ClaimQuestion, type ClaimMeta } from "./ClaimQuestion";
import { FollowUp } from "./FollowUp";
import { ANNOTATE_TEXT as T } from "./text";
import { viewAfterClaim, viewOfExample, type VerdictView } from "./verdict";
import { SUGGEST_TEXT } from "../suggest/text";

export type Shown =
  | { kind: "verdict"; view: VerdictView; clientId: string | null }
  | { kind: "queued"; clientId: string; reason: string }
  | { kind: "error"; message: string };

interface Props {
  shown: Shown | null;
  online: boolean;
  isQA: boolean;
  claimMeta: ClaimMeta; // who answers "Did the model get it wrong?" (tasks with fooling ask_user), and where
  fields: FieldSpec[]; // the task's input fields: those for the verdict (fooled / not_fooled) are asked after it
  contexts: Record<string, string>; // the context texts (span fields)
  contextTitles: Record<string, string>; // their display names
  labelText?: (label: string) => string; // a label's display name in the UI locale (the task's translation)
  onChange: (view: VerdictView) => void;
  onTryAgain: () => void;
  provisional?: ComponentChildren; // the offline model's guess for a queued example, right under its status
  children?: ComponentChildren; // the attempts on this context
}

/** The verdict's heading: where the focus goes once a submission has an answer. */
export const VERDICT_HEADING_ID = "verdict-title";

export function VerdictPanel({ shown, online, isQA, claimMeta, fields, contexts, contextTitles, labelText = humanize, onChange, onTryAgain, provisional, children }: Props) {
  const view = shown?.kind === "verdict" ? shown.view : null;
  const sectionRef = useRef<HTMLElement>(null);
  usePendingFollow(view, onChange);

  // On a phone the verdict is below the form: bring it into view when it changes (a second queued example too, whose
  // provisional verdict shows here).
  const which = shown?.kind === "error" ? shown.message : shown?.clientId ?? null;
  useEffect(() => {
    if (!shown || window.matchMedia("(min-width: 900px)").matches) return;
    const smooth = !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    sectionRef.current?.scrollIntoView({ block: "start", behavior: smooth ? "smooth" : "auto" });
  }, [shown?.kind, which, view?.exampleId, view?.verdict]);

  return (
    <section ref={sectionRef} class="card verdict" aria-labelledby="verdict-title" data-state={shown?.kind ?? "empty"}>
      <h2 id={VERDICT_HEADING_ID} tabIndex={-1}>{T.verdictTitle}</h2>
      <div aria-live="polite" aria-atomic="true" class="verdict-live" data-testid="verdict-live">
        {!shown && <p class="hint">{T.verdictEmpty}</p>}
        {shown?.kind === "error" && <p class="error">{shown.message}</p>}
        {shown?.kind === "queued" && (
          <div class="verdict-head">
            <VerdictBadge verdict={null} queued />
            <p>{shown.reason}</p>
          </div>
        )}
        {view && (
          <div class="verdict-head">
            <VerdictBadge verdict={view.verdict} />
            <p class="verdict-message">{view.message}</p>
          </div>
        )}
        {view?.assisted && (
          <p class="hint" data-testid="verdict-assisted">{view.assisted.edited ? SUGGEST_TEXT.assistedEdited : SUGGEST_TEXT.assisted}</p>
        )}
      </div>
      {provisional}
      {view && <ModelAnswers view={view} isQA={isQA} labelText={labelText} />}
      {view && view.verdict === "AWAITING_CLAIM" && !view.sandbox && view.exampleId && !view.retracted && (
        <ClaimQuestion
          exampleId={view.exampleId}
          summary={view.summary ?? view.intended ?? ""}
          meta={claimMeta}
          onClaimed={(claimed) => onChange(viewAfterClaim(view, claimed))}
        />
      )}
      {view && !view.sandbox && view.exampleId && !view.retracted && (view.verdict === "FOOLED" || view.verdict === "NOT_FOOLED") && (
        <FollowUp
          key={view.exampleId}
          exampleId={view.exampleId}
          fooled={view.verdict === "FOOLED"}
          fields={fields}
          contexts={contexts}
          contextTitles={contextTitles}
          online={online}
        />
      )}
      {shown && (
        <div class="actions">
          <button type="button" class="primary" onClick={onTryAgain}>{T.tryAgain}</button>
        </div>
      )}
      {children}
    </section>
  );
}

function ModelAnswers({ view, isQA, labelText }: { view: VerdictView; isQA: boolean; labelText: (label: string) => string }) {
  if (!view.answers.length) return null;
  return (
    <div class="model-answers">
      {view.answers.map((answer, i) => (
        <div class="model-answer" key={i} data-model={answer.modelName}>
          <dl class="pairs">
            <div>
              <dt>{T.modelSays}</dt>
              <dd class="model-label" data-testid="model-label">
                {isQA ? (answer.answer ?? "—") : answer.label ? labelText(answer.label) : "—"}
              </dd>
            </div>
            {view.intended && (
              <div>
                <dt>{T.youSaid}</dt>
                <dd>{isQA ? view.intended : labelText(view.intended)}</dd>
              </div>
            )}
            {answer.confidence !== null && (
              <div>
                <dt>{T.confidence}</dt>
                <dd>{formatPercent(answer.confidence)}</dd>
              </div>
            )}
          </dl>
          <ProbabilityBars
            probabilities={answer.probabilities}
            chosen={answer.label}
            caption={view.answers.length > 1 ? T.modelProbabilityCaption(answer.modelName) : T.probabilityCaption}
          />
        </div>
      ))}
    </div>
  );
}

/** While the verdict is pending: follow the example live, and re-read it after reconnecting. */
function usePendingFollow(view: VerdictView | null, onChange: (view: VerdictView) => void) {
  const exampleId = view && !view.sandbox && view.verdict === "PENDING" ? view.exampleId : null;
  const latest = useRef(onChange);
  latest.current = onChange;
  useEffect(() => {
    if (!exampleId) return undefined;
    const accept = (example: Example | null) => {
      if (example && example.verdict !== "PENDING") latest.current(viewOfExample(example));
    };
    const reread = () => {
      request(EXAMPLE_NODE, { id: exampleId }).then((data) => accept(isNodeWith(data.node, "verdict") ? data.node : null), () => {});
    };
    const stop = subscribe(EXAMPLE_UPDATED, { exampleId }, (data) => accept(data.exampleUpdated));
    const off = reconnected.on(reread);
    return () => {
      stop();
      off();
    };
  }, [exampleId]);
}
