/** The outbox: what waits to be sent, what the server refused (with its message), and recent deliveries. */
import { session } from "../auth/session";
import { useObservable } from "../lib/observable";
import { online } from "../lib/network";
import { href } from "../router";
import { humanize } from "../tasks/config";
import { VerdictBadge } from "../ui/Verdict";
import { summaryOf, type OutboxItem } from "./outbox";
import { discardItem, outboxItems, retryItem, syncedRecords } from "./store";
import { requestSync, syncState } from "./sync";
import { CLAIM_TEXT } from "./claims";
import { VOTE_TEXT } from "./validations";
import { formatDateTime } from "../i18n/format";
import { slot } from "../i18n/slot";
import { OUTBOX_PAGE_TEXT as T } from "./text";

export function OutboxPage() {
  const username = useObservable(session)?.user.username ?? "";
  const items = useObservable(outboxItems);
  const synced = useObservable(syncedRecords).filter((r) => r.username === username);
  const state = useObservable(syncState);
  const isOnline = useObservable(online);
  const mine = items.filter((item) => item.username === username);
  const pending = mine.filter((item) => item.state === "pending");
  const failed = mine.filter((item) => item.state === "failed");
  const others = items.filter((item) => item.username !== username);

  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title" tabIndex={-1}>{T.title}</h1>
      <p class="lead">{T.lead}</p>
      <div class="actions">
        <button type="button" onClick={() => requestSync()} disabled={!pending.length || state.kind === "syncing"}>
          {T.sendNow}
        </button>
        <span class="hint">{!isOnline && T.offline}{!isOnline && state.kind === "waiting" && " "}{state.kind === "waiting" && T.lastAttemptFailed(state.error)}</span>
      </div>

      <h2>{T.waitingTitle} <span class="count" data-testid="outbox-pending-count">{T.count(pending.length)}</span></h2>
      {pending.length === 0 ? <p class="hint">{T.nothingWaits}</p> : (
        <ul class="example-list" data-testid="outbox-pending">
          {pending.map((item) => <ItemRow item={item} key={item.clientId} />)}
        </ul>
      )}

      <h2>{T.failedTitle(failed.length)}</h2>
      {failed.length === 0 ? <p class="hint">{T.none}</p> : (
        <ul class="example-list" data-testid="outbox-failed">
          {failed.map((item) => (
            <ItemRow item={item} key={item.clientId}>
              <p class="error">{item.failure?.message}</p>
              {item.failure?.fields.length ? (
                <ul class="field-errors">{item.failure.fields.map((f) => <li key={f.field}><code>{f.field}</code>: {f.message}</li>)}</ul>
              ) : null}
              <div class="actions">
                <button type="button" onClick={() => void retryItem(item.clientId).then(requestSync)}>{T.sendAgain}</button>
                <button type="button" class="danger" onClick={() => void discardItem(item.clientId)}>{T.discard}</button>
              </div>
            </ItemRow>
          ))}
        </ul>
      )}

      <h2>{T.syncedTitle(synced.length)}</h2>
      {synced.length === 0 ? <p class="hint">{T.noneYet}</p> : (
        <ul class="example-list" data-testid="outbox-synced">
          {synced.map((record) => (
            <li class="card example-row" key={record.clientId} data-client-id={record.clientId}>
              <div class="example-row-head">
                <VerdictBadge verdict={record.view.verdict} />
                <span class="hint">{slot(T.sentAt(record.taskName), { when: <time dateTime={new Date(record.syncedAt).toISOString()}>{formatDateTime(new Date(record.syncedAt))}</time> })}</span>
              </div>
              <p class="example-text" dir="auto">{record.summary}</p>
              <p class="hint">
                {record.view.message}
                {record.view.answers[0]?.label && slot(T.modelSaid, { label: <strong>{humanize(record.view.answers[0].label)}</strong> })}
              </p>
            </li>
          ))}
        </ul>
      )}

      {others.length > 0 && (
        <p class="note">
          {T.otherAccount(others.length)} <a href={href("/login")}>{T.switchAccount}</a>
        </p>
      )}
    </section>
  );
}

function ItemRow({ item, children }: { item: OutboxItem; children?: preact.ComponentChildren }) {
  return (
    <li class="card example-row" data-client-id={item.clientId} data-state={item.state}>
      <div class="example-row-head">
        <VerdictBadge verdict={null} queued={item.state === "pending"} />
        <span class="hint">
          {slot(T.writtenAt(item.taskName), { when: <time dateTime={new Date(item.createdAt).toISOString()}>{formatDateTime(new Date(item.createdAt))}</time> })}
          {item.attempts > 0 && T.attempts(item.attempts)}
        </span>
      </div>
      <p class="example-text">
        {item.kind === "validation" ? (
          <>{slot(T.voteOn(item.mode === "OWNER", item.summary), { vote: <strong>{VOTE_TEXT[item.label]}</strong> })}</>
        ) : item.kind === "claim" ? (
          <>{CLAIM_TEXT.outbox(item.modelWasWrong)} {item.summary}</>
        ) : (
          summaryOf(item.input)
        )}
      </p>
      {item.state === "pending" && item.lastError && <p class="hint">{T.lastProblem(item.lastError)}</p>}
      {children}
    </li>
  );
}
