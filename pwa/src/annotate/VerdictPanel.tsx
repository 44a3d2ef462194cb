/**
 * The model's answer and the verdict, live: the model's label, a probability bar per label,
 * FOOLED / NOT_FOOLED / PENDING with the message; then retract, flag, explain, or try again.
 * A pending verdict follows `exampleUpdated` and is re-read after every reconnect.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { describeError, request } from "../api/client";
import { EXAMPLE_NODE, EXAMPLE_UPDATED, EXPLAIN_EXAMPLE, FLAG_EXAMPLE, RETRACT_EXAMPLE } from "../api/documents";
import type { Example, ExampleChangeResult } from "../api/types";
import { subscribe } from "../api/ws";
import { reconnected } from "../lib/network";
import { humanize } from "../tasks/config";
import { ProbabilityBars, VerdictBadge } from "../ui/Verdict";
import type { FieldSpec } from "../forms/specs";
import { ClaimQuestion, type ClaimMeta } from "./ClaimQuestion";
import { FollowUp } from "./FollowUp";
import { viewAfterClaim, viewOfExample, type VerdictView } from "./verdict";

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
  onChange: (view: VerdictView) => void;
  onTryAgain: () => void;
}

export function VerdictPanel({ shown, online, isQA, claimMeta, fields, contexts, contextTitles, onChange, onTryAgain }: Props) {
  const view = shown?.kind === "verdict" ? shown.view : null;
  const sectionRef = useRef<HTMLElement>(null);
  usePendingFollow(view, onChange);

  // On a phone the verdict is below the form: bring it into view when it changes.
  useEffect(() => {
    if (!shown || window.matchMedia("(min-width: 900px)").matches) return;
    const smooth = !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    sectionRef.current?.scrollIntoView({ block: "start", behavior: smooth ? "smooth" : "auto" });
  }, [shown?.kind, view?.exampleId, view?.verdict]);

  return (
    <section ref={sectionRef} class="card verdict" aria-labelledby="verdict-title" data-state={shown?.kind ?? "empty"}>
      <h2 id="verdict-title">Model verdict</h2>
      <div aria-live="polite" aria-atomic="true" class="verdict-live" data-testid="verdict-live">
        {!shown && <p class="hint">Submit an example to see what the model says.</p>}
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
      </div>
      {view && <ModelAnswers view={view} isQA={isQA} />}
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
        <ExampleActions view={view && !view.sandbox && view.exampleId ? view : null} online={online} onChange={onChange} onTryAgain={onTryAgain} />
      )}
    </section>
  );
}

function ModelAnswers({ view, isQA }: { view: VerdictView; isQA: boolean }) {
  if (!view.answers.length) return null;
  return (
    <div class="model-answers">
      {view.answers.map((answer, i) => (
        <div class="model-answer" key={i} data-model={answer.modelName}>
          <dl class="pairs">
            <div>
              <dt>Model says</dt>
              <dd class="model-label" data-testid="model-label">
                {isQA ? (answer.answer ?? "—") : answer.label ? humanize(answer.label) : "—"}
              </dd>
            </div>
            {view.intended && (
              <div>
                <dt>You said</dt>
                <dd>{isQA ? view.intended : humanize(view.intended)}</dd>
              </div>
            )}
            {answer.confidence !== null && (
              <div>
                <dt>Confidence</dt>
                <dd>{(answer.confidence * 100).toFixed(1)}%</dd>
              </div>
            )}
          </dl>
          <ProbabilityBars
            probabilities={answer.probabilities}
            chosen={answer.label}
            caption={view.answers.length > 1 ? `${answer.modelName}: probability per label` : "Probability per label"}
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
      request(EXAMPLE_NODE, { id: exampleId }).then((data) => accept(data.node), () => {});
    };
    const stop = subscribe(EXAMPLE_UPDATED, { exampleId }, (data) => accept(data.exampleUpdated));
    const off = reconnected.on(reread);
    return () => {
      stop();
      off();
    };
  }, [exampleId]);
}

function ExampleActions({ view, online, onChange, onTryAgain }: {
  view: VerdictView | null; // null: nothing stored to act on (sandbox, queued, error)
  online: boolean;
  onChange: (view: VerdictView) => void;
  onTryAgain: () => void;
}) {
  const [reason, setReason] = useState("");
  const [explanation, setExplanation] = useState(view?.explanation ?? "");
  const [status, setStatus] = useState<string>("");
  const [busy, setBusy] = useState(false);
  const exampleId = view?.exampleId ?? "";

  useEffect(() => {
    setExplanation(view?.explanation ?? "");
    setStatus("");
  }, [exampleId]);

  async function act(label: string, run: () => Promise<ExampleChangeResult>) {
    if (!view) return;
    setBusy(true);
    setStatus("");
    try {
      const result = await run();
      if (result.__typename === "ExampleChanged") {
        onChange({
          ...view,
          retracted: result.example.retracted,
          flagged: result.example.flagged,
          explanation: result.example.explanation,
        });
        setStatus(`${label}.`);
      } else {
        setStatus(result.message);
      }
    } catch (error) {
      setStatus(describeError(error));
    } finally {
      setBusy(false);
    }
  }

  const disabled = busy || !online;
  const notes = view ? [!online && "Reconnect to change this example.", view.retracted && "Retracted.", view.flagged && "Flagged.", status] : [];
  const note = notes.filter(Boolean).join(" ");
  return (
    <div class="example-actions">
      <p role="status" aria-live="polite" class={note ? "status-line" : "visually-hidden"}>{note}</p>
      <div class="actions">
        <button type="button" class="primary" onClick={onTryAgain}>Try again</button>
        {view && (
          <button
            type="button"
            class="danger"
            disabled={disabled || view.retracted}
            onClick={() => {
              if (window.confirm("Retract this example? It will no longer count.")) {
                void act("Retracted", async () => (await request(RETRACT_EXAMPLE, { exampleId })).retractExample);
              }
            }}
          >
            Retract
          </button>
        )}
      </div>
      {view && (
        <>
          <details class="disclosure">
            <summary>Add an explanation</summary>
            <form
              class="inline-form"
              onSubmit={(e) => {
                e.preventDefault();
                void act("Explanation saved", async () => (await request(EXPLAIN_EXAMPLE, { exampleId, explanation })).explainExample);
              }}
            >
              <label for="explanation">Why should the model get this wrong?</label>
              <textarea id="explanation" rows={2} maxLength={2000} value={explanation}
                onInput={(e) => setExplanation((e.target as HTMLTextAreaElement).value)} />
              <button type="submit" disabled={disabled}>Save explanation</button>
            </form>
          </details>
          <details class="disclosure">
            <summary>Flag this example</summary>
            <form
              class="inline-form"
              onSubmit={(e) => {
                e.preventDefault();
                void act("Flagged", async () => (await request(FLAG_EXAMPLE, { exampleId, reason })).flagExample);
              }}
            >
              <label for="flag-reason">What is wrong with it? (optional)</label>
              <input id="flag-reason" value={reason} maxLength={500} onInput={(e) => setReason((e.target as HTMLInputElement).value)} />
              <button type="submit" disabled={disabled || view.flagged}>Flag</button>
            </form>
          </details>
        </>
      )}
    </div>
  );
}
