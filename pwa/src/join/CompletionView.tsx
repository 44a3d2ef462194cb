/**
 * The end of a campaign: the completion code (or, after a failed quiz, the screened-out code) and the way back to
 * the platform: a link (Prolific, an open campaign's redirect) or MTurk's external-submit form (POST). finishCampaign
 * is idempotent, so a reload asks it again for the code.
 */
import { useEffect, useState } from "preact/hooks";
import { describeError, request } from "../api/client";
import { FINISH_CAMPAIGN } from "./documents";
import { completionAction, formatMoney } from "./flow";
import { JOIN_TEXT } from "./text";
import type { CampaignWorkerState, CompletionInfo } from "./types";

export function CompletionView({
  state,
  completion,
  onState,
}: {
  state: CampaignWorkerState;
  completion: CompletionInfo | null;
  onState: (s: CampaignWorkerState, completion?: CompletionInfo | null) => void;
}) {
  const [error, setError] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);

  async function load() {
    setError(null);
    try {
      const { finishCampaign: result } = await request(FINISH_CAMPAIGN, { campaignId: state.campaign.id });
      if (result.__typename === "CampaignFinished") onState(result.state, result.completion);
      else setError(result.message);
    } catch (problem) {
      setError(describeError(problem));
    }
  }

  useEffect(() => {
    if (!completion) void load();
  }, [completion === null]);

  const screened = completion?.screenedOut ?? state.stage === "SCREENED_OUT";
  const quotaReached = !screened && state.quotaDone;

  async function copy(code: string) {
    try {
      await navigator.clipboard.writeText(code);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  }

  return (
    <section class="join card narrow" aria-labelledby="page-title" data-testid="completion">
      <p class="crumbs">{state.campaign.title}</p>
      <h1 id="page-title" tabIndex={-1}>{screened ? JOIN_TEXT.screenedTitle : JOIN_TEXT.completionTitle}</h1>
      {quotaReached && <p>{JOIN_TEXT.quotaReached}</p>}
      {completion ? (
        <>
          <p>{screened ? JOIN_TEXT.screenedLead : JOIN_TEXT.completionLead}</p>
          <p class="completion-code" data-testid="completion-code">{completion.code}</p>
          {!screened && (
            <p data-testid="completion-earned">
              {JOIN_TEXT.earnedTotal(formatMoney(state.earnedCents, state.currency), formatMoney(state.pendingCents, state.currency))}
            </p>
          )}
          <CompletionTarget completion={completion} platform={state.campaign.platform} />
          <p class="hint">{JOIN_TEXT.copyCode}</p>
          <div class="actions">
            <button type="button" onClick={() => void copy(completion.code)}>{JOIN_TEXT.copy}</button>
            <span role="status" aria-live="polite">{copied ? JOIN_TEXT.copied : ""}</span>
          </div>
        </>
      ) : (
        <p role="status" aria-live="polite">{error ? "" : JOIN_TEXT.finishing}</p>
      )}
      {error && (
        <>
          <p role="alert" class="error">{error}</p>
          <button type="button" onClick={() => void load()}>{JOIN_TEXT.retry}</button>
        </>
      )}
    </section>
  );
}

function CompletionTarget({ completion, platform }: { completion: CompletionInfo; platform: string }) {
  const action = completionAction(completion);
  if (action.kind === "link") {
    return (
      <p>
        <a class="button primary" href={action.url} rel="noopener noreferrer" data-testid="completion-link">
          {platform === "PROLIFIC" ? JOIN_TEXT.goBackProlific : JOIN_TEXT.goBack}
        </a>
      </p>
    );
  }
  if (action.kind === "form") {
    return (
      <form method="post" action={action.action} data-testid="completion-form">
        {action.fields.map((f) => <input type="hidden" name={f.name} value={f.value} key={f.name} />)}
        <button type="submit" class="primary">{JOIN_TEXT.submitMturk}</button>
      </form>
    );
  }
  return null;
}
