"""Webhook jobs: an event fanned out to its task's hooks, one delivery attempt, and the sweep of lost attempts
(server/webhooks/dispatch.py, server/webhooks/delivery.py)."""

from __future__ import annotations

from typing import Any

from server.webhooks import delivery, dispatch


async def fan_out_webhook_event(ctx: dict, event: dict[str, Any]) -> int:
    """Idempotent: one delivery per hook and event id. Returns how many attempts were queued."""
    return await dispatch.fan_out(ctx["services"], event)


async def deliver_webhook(ctx: dict, delivery_id: int, attempt: int) -> str:
    """Idempotent: an attempt already recorded is not sent again."""
    return await delivery.deliver(ctx["services"], delivery_id, attempt)


async def retry_stalled_webhook_deliveries(ctx: dict) -> int:
    return await delivery.retry_stalled(ctx["services"])
