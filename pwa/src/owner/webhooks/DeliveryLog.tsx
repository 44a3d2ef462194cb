/** A hook's deliveries, newest first, each with its attempts (status code or error, duration, time); "Load more" by cursor. */
import { useEffect, useState } from "preact/hooks";
import { describeError, request } from "../../api/client";
import { WEBHOOK_DELIVERIES, type WebhookDelivery } from "./documents";
import { attemptOutcome, mergeDeliveries, succeeded } from "./form";
import { formatDateTime } from "../../i18n/format";
import { EVENT_SHORT, WEBHOOK_TEXT as T } from "./text";

const PAGE = 20;

export function DeliveryLog({ webhookId }: { webhookId: string }) {
  const [deliveries, setDeliveries] = useState<WebhookDelivery[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [more, setMore] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function load(after: string | null) {
    setBusy(true);
    try {
      const { webhookDeliveries: page } = await request(WEBHOOK_DELIVERIES, { webhookId, first: PAGE, after });
      const nodes = page.edges.map((e) => e.node);
      setDeliveries((shown) => (after && shown ? mergeDeliveries(shown, nodes) : nodes));
      setCursor(page.pageInfo.endCursor);
      setMore(page.pageInfo.hasNextPage);
      setError(null);
    } catch (problem) {
      setError(describeError(problem));
    } finally {
      setBusy(false);
    }
  }
  useEffect(() => void load(null), [webhookId]);

  const titleId = `log-${webhookId}-title`;
  return (
    <section aria-labelledby={titleId} data-testid="delivery-log">
      <h3 id={titleId}>{T.logTitle}</h3>
      <div class="actions">
        <button type="button" disabled={busy} onClick={() => void load(null)}>{T.refresh}</button>
      </div>
      {error && <p role="alert" class="error">{error}</p>}
      {deliveries === null ? (
        <p role="status">{T.loading}</p>
      ) : deliveries.length === 0 ? (
        <p>{T.noDeliveries}</p>
      ) : (
        <ol class="example-list">
          {deliveries.map((d) => (
            <li class="card" key={d.id} data-testid="delivery">
              <p class="example-row-head">
                <strong>{EVENT_SHORT[d.event]}</strong> <span class="status-tag" data-testid="delivery-status">{T.statusText[d.status]}</span>{" "}
                <time class="hint" dateTime={d.createdAt}>{formatDateTime(d.createdAt)}</time>
              </p>
              <p class="hint">{T.eventId}: <code>{d.eventId}</code></p>
              {d.deliveredAt && <p class="hint">{T.deliveredAt(d.deliveredAt)}</p>}
              {d.nextAttemptAt && <p class="hint">{T.nextAttempt(d.nextAttemptAt)}</p>}
              <p class="hint">{T.attemptsTitle(d.attempts.length)}</p>
              {d.attempts.length > 0 && (
                <ol>
                  {d.attempts.map((a) => (
                    <li key={a.number} data-testid="attempt">
                      {T.attempt(a.number)}: <span class={succeeded(a) ? "notice-ok" : "error"}>{attemptOutcome(a)}</span>
                      {" · "}{T.duration(a.durationMs)}{" · "}<time dateTime={a.at}>{formatDateTime(a.at)}</time>
                    </li>
                  ))}
                </ol>
              )}
            </li>
          ))}
        </ol>
      )}
      {more && (
        <div class="actions">
          <button type="button" disabled={busy} onClick={() => void load(cursor)}>{T.loadMore}</button>
        </div>
      )}
    </section>
  );
}
