/**
 * "Did the model get it wrong?" — asked after the model's answer on a task whose annotators judge the model
 * (fooling `ask_user`). The answer goes through the outbox (offline too) and is sent exactly once; the
 * stored claim comes back through `claimSettled` and becomes the shown verdict.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import type { FoolingClaimed } from "../api/types";
import { online } from "../lib/network";
import { useObservable } from "../lib/observable";
import { CLAIM_TEXT, claimWaiting } from "../outbox/claims";
import { outboxItems, retryItem } from "../outbox/store";
import { castClaim, claimSettled, requestSync } from "../outbox/sync";

export interface ClaimMeta {
  username: string;
  taskCode: string;
  taskName: string;
  roundId: string;
}

interface Props {
  exampleId: string;
  summary: string; // what the example says, for the outbox page
  meta: ClaimMeta;
  onClaimed: (claimed: FoolingClaimed) => void;
}

export function ClaimQuestion({ exampleId, summary, meta, onClaimed }: Props) {
  const items = useObservable(outboxItems);
  const isOnline = useObservable(online);
  const waiting = claimWaiting(items, meta.username, exampleId);
  const [busy, setBusy] = useState(false);
  const titleId = `claim-title-${exampleId}`;
  const hintId = `claim-hint-${exampleId}`;
  const latest = useRef(onClaimed);
  latest.current = onClaimed;

  useEffect(
    () =>
      claimSettled.on(({ item, outcome, claimed }) => {
        if (item.exampleId === exampleId && outcome === "done" && claimed) latest.current(claimed);
      }),
    [exampleId],
  );

  async function answer(modelWasWrong: boolean) {
    setBusy(true);
    try {
      await castClaim({ exampleId, modelWasWrong, roundId: meta.roundId, summary }, meta);
    } finally {
      setBusy(false);
    }
  }

  const refused = waiting?.state === "failed" ? waiting.failure?.message ?? "" : null;
  const status = refused !== null
    ? CLAIM_TEXT.refusedBecause(refused)
    : waiting
      ? isOnline ? CLAIM_TEXT.sending : CLAIM_TEXT.savedOffline
      : "";
  return (
    <div class="claim-question" role="group" aria-labelledby={titleId} aria-describedby={hintId} data-testid="claim-question">
      <p id={titleId} class="verdict-message">{CLAIM_TEXT.question}</p>
      <p id={hintId} class="hint">{CLAIM_TEXT.hint}</p>
      <div class="actions">
        <button type="button" class="primary" disabled={busy || (!!waiting && refused === null)} onClick={() => void answer(true)}>
          {CLAIM_TEXT.yes}
        </button>
        <button type="button" disabled={busy || (!!waiting && refused === null)} onClick={() => void answer(false)}>
          {CLAIM_TEXT.no}
        </button>
        {refused !== null && waiting && (
          <button type="button" onClick={() => void retryItem(waiting.clientId).then(requestSync)}>
            {CLAIM_TEXT.sendAgain}
          </button>
        )}
      </div>
      <p role="status" aria-live="polite" class={status ? "status-line" : "visually-hidden"}>{status}</p>
    </div>
  );
}
