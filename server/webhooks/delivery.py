"""Delivering webhook events: one attempt per arq job, each recorded once, retried with exponential backoff; a hook
whose deliveries keep failing is disabled with the reason its owners read.

Idempotent: an attempt is identified by (delivery, number). A job finds the delivery already past that attempt (a
re-run, or a duplicate job) and returns without sending; the attempt row is unique, and the delivery row is locked
while the attempt is recorded, so two racing runs record it once. A job that dies mid-request leaves the attempt
unrecorded: it is sent again (at least once, never recorded twice). The sweeper re-queues attempts whose job was lost.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import time
from datetime import UTC, datetime, timedelta

from server.core import db
from server.core.services import Services
from server.core.settings import Settings
from server.webhooks import queries, sender
from server.webhooks.dispatch import hooks_changed, queue_attempt
from server.webhooks.records import DeliveryStatus
from server.webhooks.signing import DELIVERY_HEADER, EVENT_HEADER, SIGNATURE_HEADER, derive_secret, signature_header

log = logging.getLogger("dynabench.webhooks")

STALLED_GRACE_S = 60.0  # an attempt this late has lost its job
STALLED_BATCH = 500


def secret_key(settings: Settings) -> bytes:
    """The key hooks' secrets are derived from: WEBHOOK_SECRET_KEY, else one derived from JWT_SECRET."""
    if settings.webhook_secret_key:
        return settings.webhook_secret_key.encode()
    return hmac.new(settings.jwt_secret.encode(), b"dynabench webhook secrets", hashlib.sha256).digest()


def backoff_s(settings: Settings, attempt: int) -> float:
    """The wait after failed attempt `attempt` (1-based): base, 2·base, 4·base, … capped."""
    return min(settings.webhook_retry_base_s * 2 ** (attempt - 1), settings.webhook_retry_max_s)


async def deliver(services: Services, delivery_id: int, attempt: int) -> str:
    """Attempt `attempt` of a delivery; returns what became of it."""
    row = await queries.delivery_to_send(delivery_id)
    if row is None:
        return "gone"  # the hook was deleted
    if row["status"] != DeliveryStatus.PENDING or row["attempts"] >= attempt:
        return "recorded"  # this attempt (or a later one) has run already
    if not row["hook_enabled"]:
        await queries.cancel_delivery(delivery_id, "The webhook was disabled before this event could be delivered.")
        return DeliveryStatus.CANCELLED
    settings = services.settings
    body = row["payload"].encode()
    key = secret_key(settings)
    previous = [derive_secret(key, row["previous_secret_salt"])] if row["previous_secret_salt"] else []
    headers = {
        SIGNATURE_HEADER: signature_header(derive_secret(key, row["secret_salt"]), int(time.time()), body, *previous),
        EVENT_HEADER: row["event_type"],
        DELIVERY_HEADER: str(row["event_id"]),
    }
    sent = await sender.send(row["url"], body, headers, settings.webhook_timeout_s, settings.webhooks_allow_private)
    last = attempt >= settings.webhook_max_attempts
    if sent.ok:
        status, next_at = DeliveryStatus.DELIVERED, None
    elif last:
        status, next_at = DeliveryStatus.FAILED, None
    else:
        delay = backoff_s(settings, attempt)
        status, next_at = DeliveryStatus.PENDING, datetime.now(UTC) + timedelta(seconds=delay)
    disabled = False
    async with db.transaction():
        current = await queries.lock_delivery(delivery_id)
        if current is None or current["status"] != DeliveryStatus.PENDING or current["attempts"] >= attempt:
            return "recorded"  # a racing run recorded this attempt first
        await queries.insert_attempt(delivery_id, attempt, sent.status_code, sent.error, sent.duration_ms)
        await queries.record_delivery(delivery_id, status, attempt, next_at, sent.status_code, sent.error)
        if sent.ok:
            await queries.hook_succeeded(row["webhook"])
        elif last:
            reason = (
                f"Disabled after {settings.webhook_disable_after} deliveries in a row failed (each tried "
                f"{settings.webhook_max_attempts} times); the last answer: {sent.error}. Fix the endpoint, then "
                "enable the webhook again (updateWebhook)."
            )
            disabled = await queries.hook_failed(row["webhook"], settings.webhook_disable_after, reason) is False
    if disabled:
        log.warning("webhook %s disabled after repeated failures", row["webhook"])
        await hooks_changed(services.redis)
    if status == DeliveryStatus.PENDING:
        await queue_attempt(services, delivery_id, row["event_id"], attempt + 1, backoff_s(settings, attempt))
    return status


async def retry_stalled(services: Services) -> int:
    """Attempts whose job was lost (Redis restarted without its data, a worker died between recording and
    queuing) are queued again; the job id keeps a queued one from running twice."""
    rows = await queries.stalled_deliveries(STALLED_GRACE_S, STALLED_BATCH)
    for row in rows:
        await queue_attempt(services, row["id"], row["event_id"], row["attempts"] + 1, 0)
    return len(rows)
