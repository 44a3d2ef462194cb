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
      <h1 id="page-title" tabIndex={-1}>Outbox</h1>
      <p class="lead">
        Examples you submit and votes you cast are kept on this device until the server has answered for each of them.
        They are sent automatically whenever you are online.
      </p>
      <div class="actions">
        <button type="button" onClick={() => requestSync()} disabled={!pending.length || state.kind === "syncing"}>
          Send now
        </button>
        <span class="hint">{!isOnline && "Offline. "}{state.kind === "waiting" && `Last attempt failed: ${state.error}`}</span>
      </div>

      <h2>Waiting to be sent <span class="count" data-testid="outbox-pending-count">({pending.length})</span></h2>
      {pending.length === 0 ? <p class="hint">Nothing waits.</p> : (
        <ul class="example-list" data-testid="outbox-pending">
          {pending.map((item) => <ItemRow item={item} key={item.clientId} />)}
        </ul>
      )}

      <h2>Could not be sent ({failed.length})</h2>
      {failed.length === 0 ? <p class="hint">None.</p> : (
        <ul class="example-list" data-testid="outbox-failed">
          {failed.map((item) => (
            <ItemRow item={item} key={item.clientId}>
              <p class="error">{item.failure?.message}</p>
              {item.failure?.fields.length ? (
                <ul class="field-errors">{item.failure.fields.map((f) => <li key={f.field}><code>{f.field}</code>: {f.message}</li>)}</ul>
              ) : null}
              <div class="actions">
                <button type="button" onClick={() => void retryItem(item.clientId).then(requestSync)}>Send again</button>
                <button type="button" class="danger" onClick={() => void discardItem(item.clientId)}>Discard</button>
              </div>
            </ItemRow>
          ))}
        </ul>
      )}

      <h2>Recently sent ({synced.length})</h2>
      {synced.length === 0 ? <p class="hint">None yet.</p> : (
        <ul class="example-list" data-testid="outbox-synced">
          {synced.map((record) => (
            <li class="card example-row" key={record.clientId} data-client-id={record.clientId}>
              <div class="example-row-head">
                <VerdictBadge verdict={record.view.verdict} />
                <span class="hint">{record.taskName} · sent <time dateTime={new Date(record.syncedAt).toISOString()}>{new Date(record.syncedAt).toLocaleString()}</time></span>
              </div>
              <p class="example-text">{record.summary}</p>
              <p class="hint">
                {record.view.message}
                {record.view.answers[0]?.label && <> The model said <strong>{humanize(record.view.answers[0].label)}</strong>.</>}
              </p>
            </li>
          ))}
        </ul>
      )}

      {others.length > 0 && (
        <p class="note">
          {others.length} example{others.length === 1 ? "" : "s"} on this device belong{others.length === 1 ? "s" : ""} to another account
          and will be sent when that account logs in here. <a href={href("/login")}>Switch account</a>
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
          {item.taskName} · written <time dateTime={new Date(item.createdAt).toISOString()}>{new Date(item.createdAt).toLocaleString()}</time>
          {item.attempts > 0 && ` · ${item.attempts} attempt${item.attempts === 1 ? "" : "s"}`}
        </span>
      </div>
      <p class="example-text">
        {item.kind === "validation" ? (
          <>Your vote <strong>{VOTE_TEXT[item.label]}</strong>{item.mode === "OWNER" && " (owner)"} on: {item.summary}</>
        ) : item.kind === "claim" ? (
          <>{CLAIM_TEXT.outbox(item.modelWasWrong)} {item.summary}</>
        ) : (
          summaryOf(item.input)
        )}
      </p>
      {item.state === "pending" && item.lastError && <p class="hint">Last problem: {item.lastError}</p>}
      {children}
    </li>
  );
}
