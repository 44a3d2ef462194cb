/**
 * A worker at work: the campaign's quota (examples left today / in total), earned money and a Finish button above
 * the task's ordinary annotate page (drafts and the offline outbox work as everywhere). The quota and the earnings are
 * re-read after each delivered example, each outcome of the worker's examples (myExampleUpdates: the server updates
 * the ledger before it announces an outcome) and on reconnecting; with nothing left, the campaign finishes by itself.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { describeError, request } from "../api/client";
import { subscribe } from "../api/ws";
import { MY_EXAMPLE_UPDATES } from "../examples/documents";
import { AnnotatePage } from "../annotate/AnnotatePage";
import { session } from "../auth/session";
import { online, reconnected } from "../lib/network";
import { useObservable } from "../lib/observable";
import { pendingCount } from "../outbox/outbox";
import { outboxItems, syncedRecords } from "../outbox/store";
import { FINISH_CAMPAIGN, MY_CAMPAIGN_WORK } from "./documents";
import { formatMoney, quotaLines } from "./flow";
import { SafeHtml } from "./StageViews";
import { JOIN_TEXT } from "./text";
import type { CampaignWorkerState, CompletionInfo } from "./types";

export function WorkView({
  state,
  onState,
}: {
  state: CampaignWorkerState;
  onState: (s: CampaignWorkerState, completion?: CompletionInfo | null) => void;
}) {
  const isOnline = useObservable(online);
  const items = useObservable(outboxItems);
  const user = useObservable(session);
  const pending = pendingCount(items, user?.user.username ?? null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const stateRef = useRef(state);
  stateRef.current = state;

  async function finish() {
    setBusy(true);
    setError(null);
    try {
      const { finishCampaign: result } = await request(FINISH_CAMPAIGN, { campaignId: stateRef.current.campaign.id });
      if (result.__typename === "CampaignFinished") onState(result.state, result.completion);
      else setError(result.message);
    } catch (problem) {
      setError(describeError(problem));
    } finally {
      setBusy(false);
    }
  }

  async function refresh() {
    try {
      const { myCampaignWork } = await request(MY_CAMPAIGN_WORK, { campaignId: stateRef.current.campaign.id });
      if (!myCampaignWork) return; // not (or no longer) this campaign's worker: keep what is shown
      if (myCampaignWork.quotaDone && myCampaignWork.stage === "WORK") await finish();
      else onState(myCampaignWork);
    } catch {
      /* offline or refused: the last known quota stays shown */
    }
  }

  // Every delivered (or refused: the quota may be the reason) example changes the quota: re-read it, once per burst.
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const soon = () => {
      clearTimeout(timer);
      timer = setTimeout(() => void refresh(), 300);
    };
    const stops = [
      syncedRecords.subscribe(soon),
      outboxItems.subscribe(soon),
      reconnected.on(soon),
      // A decided example may have earned a bonus: its outcome arrives after the ledger counted it. The first message
      // (listening, no example) re-reads too: an outcome decided while the feed was starting is not missed.
      subscribe(MY_EXAMPLE_UPDATES, {}, () => soon(), () => undefined),
    ];
    return () => {
      clearTimeout(timer);
      stops.forEach((stop) => stop());
    };
  }, []);

  const lines = quotaLines(state);
  const campaign = state.campaign;
  return (
    <div class="campaign-work">
      <section class="card quota" aria-labelledby="quota-title" data-testid="quota">
        <h2 id="quota-title">{JOIN_TEXT.quotaTitle} <span class="count">· {campaign.title}</span></h2>
        <ul class="quota-list" aria-live="polite">
          {lines.length ? lines.map((line) => <li key={line} data-testid="quota-line">{line}</li>) : <li>{JOIN_TEXT.noLimit}</li>}
        </ul>
        <p data-testid="earned" aria-live="polite">{JOIN_TEXT.earned(formatMoney(state.earnedCents, state.currency), formatMoney(state.pendingCents, state.currency))}</p>
        <p class="hint">{JOIN_TEXT.payHint}</p>
        {campaign.instructionsHtml && (
          <details class="disclosure">
            <summary>{JOIN_TEXT.instructions}</summary>
            <SafeHtml html={campaign.instructionsHtml} />
          </details>
        )}
        <div class="actions">
          <button type="button" class="primary" onClick={() => void finish()} disabled={busy || !isOnline || pending > 0} aria-describedby="finish-hint">
            {busy ? JOIN_TEXT.finishing : JOIN_TEXT.finish}
          </button>
          <span class="hint" id="finish-hint">{!isOnline || pending > 0 ? JOIN_TEXT.offlineFinish : JOIN_TEXT.finishHint}</span>
        </div>
        <p role="alert" class="error">{error}</p>
      </section>
      <AnnotatePage params={{ code: campaign.taskCode }} />
    </div>
  );
}
