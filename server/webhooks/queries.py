"""The webhooks domain's query room: hooks, deliveries and attempts, and the task and round a webhook event names."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any, cast

from server.core.sql import Query
from server.webhooks.records import DeliveryRow, WebhookRow

# Hooks ------------------------------------------------------------------------------------------

INSERT_WEBHOOK = Query(
    """
    INSERT INTO webhooks (task, url, events, description, secret_salt, created_by)
    VALUES (:task, :url, :events, :description, :secret_salt, :created_by)
    RETURNING *
"""
)
# Serializes the creations of one task's hooks (a transaction-level advisory lock), so two concurrent ones cannot
# both pass the per-task cap.
WEBHOOK_LOCK_KEY = 0x0D1A_3E0B
LOCK_TASK_HOOKS = Query("SELECT pg_advisory_xact_lock(:key, :task)")
COUNT_WEBHOOKS = Query("SELECT count(*) FROM webhooks WHERE task = :task")
WEBHOOK_BY_ID = Query("SELECT * FROM webhooks WHERE id = :id")
LOCK_WEBHOOK = Query("SELECT * FROM webhooks WHERE id = :id FOR UPDATE")
# A rotation keeps the outgoing secret for the grace period (none: it stops signing at once).
ROTATE_SECRET = Query(
    """
    UPDATE webhooks SET previous_secret_salt = CASE WHEN :keep_until::timestamptz IS NULL THEN NULL ELSE secret_salt END,
           previous_secret_expires_at = :keep_until::timestamptz, secret_salt = :salt
     WHERE id = :id
    RETURNING *
"""
)
WEBHOOKS_OF_TASK = Query("SELECT * FROM webhooks WHERE task = :task ORDER BY id")
# Enabling (again) starts the failure count afresh and clears the reason it was disabled for.
UPDATE_WEBHOOK = Query(
    """
    UPDATE webhooks SET url = :url, events = :events, description = :description, enabled = :enabled,
           consecutive_failures = CASE WHEN :enabled AND NOT enabled THEN 0 ELSE consecutive_failures END,
           disabled_reason = CASE WHEN :enabled THEN NULL ELSE coalesce(disabled_reason, :reason) END,
           disabled_at = CASE WHEN :enabled THEN NULL ELSE coalesce(disabled_at, now()) END
     WHERE id = :id
    RETURNING *
"""
)
DELETE_WEBHOOK = Query("DELETE FROM webhooks WHERE id = :id RETURNING id")
ENABLED_HOOKS = Query("SELECT task, events FROM webhooks WHERE enabled")
HOOKS_FOR_EVENT = Query("SELECT id FROM webhooks WHERE task = :task AND enabled AND :type = ANY(events) ORDER BY id")
TASK_OF_ROUND = Query("SELECT task FROM rounds WHERE id = :round")
TASK_CODE = Query("SELECT code FROM tasks WHERE id = :task")
ROUND_NUMBER = Query("SELECT number FROM rounds WHERE id = :round")
HOOK_SUCCEEDED = Query("UPDATE webhooks SET consecutive_failures = 0 WHERE id = :id AND consecutive_failures <> 0")
# A failed delivery: counted; the Nth in a row disables the hook, with the reason its owners read.
HOOK_FAILED = Query(
    """
    UPDATE webhooks SET consecutive_failures = consecutive_failures + 1,
           enabled = enabled AND consecutive_failures + 1 < :disable_after,
           disabled_reason = CASE WHEN enabled AND consecutive_failures + 1 >= :disable_after THEN :reason
                                  ELSE disabled_reason END,
           disabled_at = CASE WHEN enabled AND consecutive_failures + 1 >= :disable_after THEN now() ELSE disabled_at END
     WHERE id = :id
    RETURNING enabled
"""
)


async def insert_webhook(values: dict[str, Any]) -> WebhookRow:
    row = await INSERT_WEBHOOK.row(**values)
    assert row is not None
    return cast(WebhookRow, row)


async def count_webhooks_locked(task_id: int) -> int:
    """Call in a transaction: the count is read after the lock (a statement of its own, so its snapshot is later)."""
    await LOCK_TASK_HOOKS.execute(key=WEBHOOK_LOCK_KEY, task=task_id)
    return int(await COUNT_WEBHOOKS.value(task=task_id))


async def webhook_by_id(webhook_id: int) -> WebhookRow | None:
    return cast(WebhookRow | None, await WEBHOOK_BY_ID.row(id=webhook_id))


async def lock_webhook(webhook_id: int) -> WebhookRow | None:
    return cast(WebhookRow | None, await LOCK_WEBHOOK.row(id=webhook_id))


async def rotate_secret(webhook_id: int, salt: str, keep_until: datetime | None) -> WebhookRow | None:
    return cast(WebhookRow | None, await ROTATE_SECRET.row(id=webhook_id, salt=salt, keep_until=keep_until))


async def webhooks_of_task(task_id: int) -> list[WebhookRow]:
    return cast(list[WebhookRow], await WEBHOOKS_OF_TASK.rows(task=task_id))


async def update_webhook(webhook_id: int, values: dict[str, Any], reason: str) -> WebhookRow:
    row = await UPDATE_WEBHOOK.row(id=webhook_id, reason=reason, **values)
    assert row is not None
    return cast(WebhookRow, row)


async def delete_webhook(webhook_id: int) -> bool:
    return await DELETE_WEBHOOK.value(id=webhook_id) is not None


async def enabled_hooks() -> list[dict[str, Any]]:
    return await ENABLED_HOOKS.rows()


async def hooks_for_event(task_id: int, event_type: str) -> list[int]:
    return [row["id"] for row in await HOOKS_FOR_EVENT.rows(task=task_id, type=event_type)]


async def task_of_round(round_id: int) -> int | None:
    return await TASK_OF_ROUND.value(round=round_id)


async def task_code(task_id: int) -> str | None:
    return await TASK_CODE.value(task=task_id)


async def round_number(round_id: int) -> int | None:
    return await ROUND_NUMBER.value(round=round_id)


async def hook_succeeded(webhook_id: int) -> None:
    await HOOK_SUCCEEDED.execute(id=webhook_id)


async def hook_failed(webhook_id: int, disable_after: int, reason: str) -> bool | None:
    """Whether the hook is still enabled (None: it is gone)."""
    return await HOOK_FAILED.value(id=webhook_id, disable_after=disable_after, reason=reason)


# Deliveries -------------------------------------------------------------------------------------

# One delivery per (hook, event): a fan-out job run twice inserts nothing the second time.
INSERT_DELIVERIES = Query(
    """
    INSERT INTO webhook_deliveries (webhook, event_id, event_type, payload, next_attempt_at)
    SELECT hook, :event_id, :type, :payload, now() FROM unnest(:hooks::int[]) AS hook
    ON CONFLICT (webhook, event_id) DO NOTHING
"""
)
PENDING_OF_EVENT = Query(
    "SELECT id, attempts FROM webhook_deliveries WHERE event_id = :event_id AND status = 'pending' ORDER BY id"
)
DELIVERY_TO_SEND = Query(
    """
    SELECT d.*, w.url, w.secret_salt, w.enabled AS hook_enabled,
           CASE WHEN w.previous_secret_expires_at > now() THEN w.previous_secret_salt END AS previous_secret_salt
      FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook
     WHERE d.id = :id
"""
)
LOCK_DELIVERY = Query("SELECT * FROM webhook_deliveries WHERE id = :id FOR UPDATE")
INSERT_ATTEMPT = Query(
    """
    INSERT INTO webhook_attempts (delivery, number, status_code, error, duration_ms)
    VALUES (:delivery, :number, :status_code, :error, :duration_ms)
    ON CONFLICT (delivery, number) DO NOTHING
    RETURNING id
"""
)
RECORD_DELIVERY = Query(
    """
    UPDATE webhook_deliveries SET status = :status::varchar, attempts = :attempts, next_attempt_at = :next_attempt_at,
           last_status_code = :status_code, last_error = :error,
           delivered_at = CASE WHEN :status::varchar = 'delivered' THEN now() ELSE delivered_at END
     WHERE id = :id
"""
)
CANCEL_DELIVERY = Query(
    "UPDATE webhook_deliveries SET status = 'cancelled', next_attempt_at = NULL, last_error = :reason "
    "WHERE id = :id AND status = 'pending'"
)
DELIVERIES_PAGE = Query(
    """
    SELECT d.id, d.event_id, d.event_type, d.payload, d.status, d.attempts, d.next_attempt_at, d.last_status_code,
           d.last_error, d.created_at, d.delivered_at,
           coalesce((SELECT json_agg(json_build_object('number', a.number, 'status_code', a.status_code,
                                                       'error', a.error, 'duration_ms', a.duration_ms, 'at', a.at)
                                     ORDER BY a.number)
                       FROM webhook_attempts a WHERE a.delivery = d.id), '[]') AS attempt_log
      FROM webhook_deliveries d
     WHERE d.webhook = :webhook AND (:after::int IS NULL OR d.id < :after::int)
     ORDER BY d.id DESC
     LIMIT :limit
""",
    json=("attempt_log",),
)
# Deliveries whose next attempt should have run a while ago: its job was lost (e.g. Redis lost its data).
STALLED = Query(
    """
    SELECT id, event_id, attempts FROM webhook_deliveries
     WHERE status = 'pending' AND next_attempt_at < now() - make_interval(secs => :grace_s)
     ORDER BY next_attempt_at LIMIT :limit
"""
)


async def insert_deliveries(hooks: list[int], event_id: uuid.UUID, event_type: str, payload: str) -> None:
    await INSERT_DELIVERIES.execute(hooks=hooks, event_id=event_id, type=event_type, payload=payload)


async def pending_of_event(event_id: uuid.UUID) -> list[dict[str, Any]]:
    return await PENDING_OF_EVENT.rows(event_id=event_id)


async def delivery_to_send(delivery_id: int) -> dict[str, Any] | None:
    return await DELIVERY_TO_SEND.row(id=delivery_id)


async def lock_delivery(delivery_id: int) -> DeliveryRow | None:
    return cast(DeliveryRow | None, await LOCK_DELIVERY.row(id=delivery_id))


async def insert_attempt(delivery_id: int, number: int, status_code: int | None, error: str | None, duration_ms: float) -> bool:
    inserted = await INSERT_ATTEMPT.value(
        delivery=delivery_id, number=number, status_code=status_code, error=error, duration_ms=duration_ms
    )
    return inserted is not None


async def record_delivery(
    delivery_id: int, status: str, attempts: int, next_attempt_at: datetime | None, status_code: int | None, error: str | None
) -> None:
    await RECORD_DELIVERY.execute(
        id=delivery_id,
        status=status,
        attempts=attempts,
        next_attempt_at=next_attempt_at,
        status_code=status_code,
        error=error,
    )


async def cancel_delivery(delivery_id: int, reason: str) -> None:
    await CANCEL_DELIVERY.execute(id=delivery_id, reason=reason)


async def deliveries_page(webhook_id: int, after: int | None, limit: int) -> list[dict[str, Any]]:
    return await DELIVERIES_PAGE.rows(webhook=webhook_id, after=after, limit=limit)


async def stalled_deliveries(grace_s: float, limit: int) -> list[dict[str, Any]]:
    return await STALLED.rows(grace_s=grace_s, limit=limit)
