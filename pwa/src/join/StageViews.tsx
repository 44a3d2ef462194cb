/** The join flow's first pages: MTurk's preview, the consent, the onboarding quiz. */
import { useState } from "preact/hooks";
import { describeError, request } from "../api/client";
import { GIVE_CONSENT, SUBMIT_QUIZ } from "./documents";
import { demoteHeadings } from "./flow";
import { JOIN_TEXT } from "./text";
import type { CampaignPage, CampaignWorkerState, CompletionInfo } from "./types";

/** Server-sanitized HTML (the campaign's markdown rendered by the API's allow-list sanitizer). */
export function SafeHtml({ html, id }: { html: string; id?: string }) {
  return <div class="campaign-text" id={id} dangerouslySetInnerHTML={{ __html: demoteHeadings(html) }} />;
}

export function PreviewView({ campaign }: { campaign: CampaignPage }) {
  return (
    <section class="join" aria-labelledby="page-title" data-testid="campaign-preview">
      <p class="crumbs">{JOIN_TEXT.previewTitle}</p>
      <h1 id="page-title" tabIndex={-1}>{campaign.title}</h1>
      <p class="note" role="status"><strong>{JOIN_TEXT.acceptHit}</strong> {JOIN_TEXT.previewNote}</p>
      <div class="card">
        <h2>{JOIN_TEXT.instructions}</h2>
        <p class="lead">{JOIN_TEXT.previewLead}</p>
        <SafeHtml html={campaign.instructionsHtml} />
      </div>
    </section>
  );
}

export function ConsentView({ state, onState }: { state: CampaignWorkerState; onState: (s: CampaignWorkerState) => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function accept() {
    setBusy(true);
    setError(null);
    try {
      const { giveConsent: result } = await request(GIVE_CONSENT, { campaignId: state.campaign.id });
      if (result.__typename === "ConsentGiven") onState(result.state);
      else setError(result.message);
    } catch (problem) {
      setError(describeError(problem));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section class="join" aria-labelledby="page-title" data-testid="consent">
      <p class="crumbs">{state.campaign.title}</p>
      <h1 id="page-title" tabIndex={-1}>{JOIN_TEXT.consentTitle}</h1>
      <p class="lead">{JOIN_TEXT.consentLead}</p>
      <div class="card">
        <SafeHtml html={state.campaign.consentHtml} id="consent-text" />
      </div>
      <div class="actions">
        <button type="button" class="primary" onClick={() => void accept()} disabled={busy} aria-describedby="consent-decline">
          {JOIN_TEXT.consentAccept}
        </button>
      </div>
      <p class="hint" id="consent-decline">{JOIN_TEXT.consentDecline}</p>
      <p role="alert" class="error">{error}</p>
    </section>
  );
}

export function QuizView({
  state,
  onState,
}: {
  state: CampaignWorkerState;
  onState: (s: CampaignWorkerState, completion?: CompletionInfo | null) => void;
}) {
  const questions = state.campaign.quiz;
  const [answers, setAnswers] = useState<Record<string, string>>({});
  const [missing, setMissing] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: Event) {
    event.preventDefault();
    const unanswered = questions.filter((q) => !(answers[q.id] ?? "").trim()).map((q) => q.id);
    setMissing(unanswered);
    if (unanswered.length) {
      document.querySelector<HTMLElement>(`[name="quiz-${unanswered[0]}"]`)?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const { submitQuiz: result } = await request(SUBMIT_QUIZ, {
        campaignId: state.campaign.id,
        answers: questions.map((q) => ({ questionId: q.id, answer: answers[q.id] ?? "" })),
      });
      if (result.__typename !== "QuizGraded") {
        setError(result.message);
        return;
      }
      if (!result.passed && result.completion === null && result.attemptsLeft > 0) {
        setAnswers({});
        setMessage(JOIN_TEXT.quizFailed(result.score, result.total, result.attemptsLeft));
        onState(result.state);
        document.getElementById("quiz-result")?.focus();
        return;
      }
      onState(result.state, result.completion);
    } catch (problem) {
      setError(describeError(problem));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section class="join" aria-labelledby="page-title" data-testid="quiz">
      <p class="crumbs">{state.campaign.title}</p>
      <h1 id="page-title" tabIndex={-1}>{JOIN_TEXT.quizTitle}</h1>
      <p class="lead">
        {JOIN_TEXT.quizLead(state.campaign.quizPassMark, questions.length)}{" "}
        <span data-testid="attempts-left">{JOIN_TEXT.attemptsLeft(state.quizAttemptsLeft)}</span>
      </p>
      <p id="quiz-result" tabIndex={-1} role="status" aria-live="polite" class={message ? "note" : ""} data-testid="quiz-result">{message}</p>
      {state.campaign.instructionsHtml && (
        <details class="disclosure card">
          <summary>{JOIN_TEXT.instructions}</summary>
          <SafeHtml html={state.campaign.instructionsHtml} />
        </details>
      )}
      <form onSubmit={(e) => void submit(e)} noValidate>
        {questions.map((q, i) => {
          const errorId = `quiz-${q.id}-error`;
          const invalid = missing.includes(q.id);
          return (
            <fieldset class="field card" key={q.id} aria-describedby={invalid ? errorId : undefined}>
              <legend>
                <span class="hint">{JOIN_TEXT.question(i + 1, questions.length)}</span>
                <br />
                <span class="quiz-prompt">{q.prompt}</span>
              </legend>
              {q.choices.length ? (
                <div class="choice-row">
                  {q.choices.map((choice) => (
                    <label class="choice" key={choice}>
                      <input
                        type="radio"
                        name={`quiz-${q.id}`}
                        value={choice}
                        checked={answers[q.id] === choice}
                        aria-invalid={invalid || undefined}
                        onChange={() => setAnswers((a) => ({ ...a, [q.id]: choice }))}
                      />{" "}
                      {choice}
                    </label>
                  ))}
                </div>
              ) : (
                <>
                  <label for={`quiz-${q.id}-text`} class="visually-hidden">{JOIN_TEXT.answerLabel}</label>
                  <input dir="auto"
                    id={`quiz-${q.id}-text`}
                    name={`quiz-${q.id}`}
                    value={answers[q.id] ?? ""}
                    maxLength={2000}
                    autocomplete="off"
                    aria-invalid={invalid || undefined}
                    onInput={(e) => setAnswers((a) => ({ ...a, [q.id]: (e.target as HTMLInputElement).value }))}
                  />
                </>
              )}
              {invalid && <p class="field-error" id={errorId}>{JOIN_TEXT.chooseOne}</p>}
            </fieldset>
          );
        })}
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>{JOIN_TEXT.submitQuiz}</button>
        </div>
        <p role="alert" class="error">{error}</p>
      </form>
    </section>
  );
}
