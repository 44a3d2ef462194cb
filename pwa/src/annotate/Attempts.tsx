/**
 * The attempts on the shown context, newest first: each with its verdict and what can still be done to it —
 * retract, flag, add an explanation (stored examples), and "Which words mattered?" (any judged attempt).
 */
import { useEffect, useState } from "preact/hooks";
import { describeError, request } from "../api/client";
import { EXPLAIN_EXAMPLE, FLAG_EXAMPLE, RETRACT_EXAMPLE } from "../api/documents";
import type { ExampleChangeResult } from "../api/types";
import { lazyWidget } from "../lib/lazy";
import { VerdictBadge } from "../ui/Verdict";
import { tagsOf, type Attempt } from "./attempts";
import { ANNOTATE_TEXT as T } from "./text";
import type { VerdictView } from "./verdict";

// "Which words mattered": its own chunk, loaded when first asked for.
const WhyWords = lazyWidget<import("./WhyWords").Props>(() => import("./WhyWords").then((m) => m.WhyWords));

interface Props {
  attempts: Attempt[];
  roundId: string;
  online: boolean;
  fieldTitles: Record<string, string>; // the input fields' display names
  onChange: (view: VerdictView) => void;
  onReuse: (attempt: Attempt) => void;
}

export function Attempts({ attempts, roundId, online, fieldTitles, onChange, onReuse }: Props) {
  if (!attempts.length) return null;
  return (
    <section class="attempts" aria-labelledby="attempts-title">
      <h3 id="attempts-title">
        {T.attemptsTitle} <span class="count">({T.attemptsCount(attempts.length)})</span>
      </h3>
      <ol class="attempt-list" reversed>
        {attempts.map((attempt, i) => (
          <AttemptCard
            key={attempt.key}
            attempt={attempt}
            number={attempts.length - i}
            roundId={roundId}
            online={online}
            fieldTitles={fieldTitles}
            onChange={onChange}
            onReuse={onReuse}
          />
        ))}
      </ol>
    </section>
  );
}

function AttemptCard({ attempt, number, roundId, online, fieldTitles, onChange, onReuse }: {
  attempt: Attempt;
  number: number;
  roundId: string;
  online: boolean;
  fieldTitles: Record<string, string>;
  onChange: (view: VerdictView) => void;
  onReuse: (attempt: Attempt) => void;
}) {
  const view = attempt.state.kind === "verdict" ? attempt.state.view : null;
  const judged = view && (view.answers.length > 0 || view.verdict === "FOOLED" || view.verdict === "NOT_FOOLED");
  const stored = view && !attempt.sandbox && view.exampleId ? view : null;
  const [why, setWhy] = useState(false);
  const id = `attempt-${attempt.key}`;
  return (
    <li class="attempt" data-testid="attempt" data-attempt={attempt.key}>
      <div class="attempt-head">
        <h4 class="attempt-title" id={`${id}-title`}>{T.attemptNumber(number)}</h4>
        {attempt.state.kind === "queued" ? <VerdictBadge verdict={null} queued /> : <VerdictBadge verdict={view!.verdict} />}
        {attempt.sandbox && <span class="status-tag">{T.sandboxTag}</span>}
        {attempt.stored && <span class="status-tag">{T.earlierTag}</span>}
        {tagsOf(view).map((tag) => (
          <span class="status-tag" key={tag} data-tag={tag}>{tag === "retracted" ? T.retractedTag : T.flaggedTag}</span>
        ))}
      </div>
      <p class="attempt-text" dir="auto">{attempt.text}</p>
      <div class="actions attempt-actions">
        <button type="button" class="small" onClick={() => onReuse(attempt)}>{T.reuse}</button>
        {judged && (
          <button type="button" class="small" aria-expanded={why} aria-controls={`${id}-why`} onClick={() => setWhy(!why)}>
            {why ? T.whyHide : T.why}
          </button>
        )}
      </div>
      {why && (
        <div id={`${id}-why`}>
          <WhyWords roundId={roundId} contextId={attempt.contextId || null} fields={attempt.fields} fieldTitles={fieldTitles} online={online} />
        </div>
      )}
      {stored && <ExampleActions view={stored} idPrefix={id} online={online} onChange={onChange} />}
    </li>
  );
}

/** Retract, flag and explain a stored example. One status line says what the last action did, once. */
function ExampleActions({ view, idPrefix, online, onChange }: {
  view: VerdictView;
  idPrefix: string;
  online: boolean;
  onChange: (view: VerdictView) => void;
}) {
  const [reason, setReason] = useState("");
  const [explanation, setExplanation] = useState(view.explanation);
  const [status, setStatus] = useState("");
  const [busy, setBusy] = useState(false);
  const exampleId = view.exampleId ?? "";

  useEffect(() => {
    setExplanation(view.explanation);
    setStatus("");
  }, [exampleId]);

  async function act(done: string, run: () => Promise<ExampleChangeResult>) {
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
        setStatus(done);
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
  // The state (retracted, flagged) shows as tags above; the status line only says what just happened.
  const note = !online ? T.reconnect : status;
  return (
    <div class="example-actions">
      <p role="status" class={note ? "status-line" : "visually-hidden"} data-testid="attempt-status">{note}</p>
      <div class="actions">
        <button
          type="button"
          class="danger small"
          disabled={disabled || view.retracted}
          onClick={() => {
            if (window.confirm(T.retractConfirm)) {
              void act(T.retracted, async () => (await request(RETRACT_EXAMPLE, { exampleId })).retractExample);
            }
          }}
        >
          {T.retract}
        </button>
      </div>
      <details class="disclosure">
        <summary>{T.explainSummary}</summary>
        <form
          class="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            void act(T.explained, async () => (await request(EXPLAIN_EXAMPLE, { exampleId, explanation })).explainExample);
          }}
        >
          <label for={`${idPrefix}-explanation`}>{T.explainLabel}</label>
          <textarea id={`${idPrefix}-explanation`} rows={2} maxLength={2000} value={explanation} dir="auto"
            onInput={(e) => setExplanation((e.target as HTMLTextAreaElement).value)} />
          <button type="submit" disabled={disabled}>{T.explainSave}</button>
        </form>
      </details>
      <details class="disclosure">
        <summary>{T.flagSummary}</summary>
        <form
          class="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            void act(T.flagged, async () => (await request(FLAG_EXAMPLE, { exampleId, reason })).flagExample);
          }}
        >
          <label for={`${idPrefix}-flag`}>{T.flagLabel}</label>
          <input id={`${idPrefix}-flag`} value={reason} maxLength={500} dir="auto" onInput={(e) => setReason((e.target as HTMLInputElement).value)} />
          <button type="submit" disabled={disabled || view.flagged}>{T.flagSubmit}</button>
        </form>
      </details>
    </div>
  );
}
