"""What the worker runs for the webhooks domain (server/webhooks/jobs.py): server/webhooks/dispatch.py and delivery.py."""

from __future__ import annotations

from typing import Any

from server.core.jobs import runs
from server.webhooks import delivery, dispatch, jobs


@runs(jobs.fan_out_webhook_event)
async def fan_out_webhook_event(ctx: dict, event: dict[str, Any]) -> int:
    """Idempotent: one delivery per hook and event id. Returns how many attempts were queued."""
    return await dispatch.fan_out(ctx["services"], event)


@runs(jobs.deliver_webhook)
async def deliver_webhook(ctx: dict, delivery_id: int, attempt: int) -> str:
    """Idempotent: an attempt already recorded is not sent again."""
    return await delivery.deliver(ctx["services"], delivery_id, attempt)


async def retry_stalled_webhook_deliveries(ctx: dict) -> int:
    """Cron: attempts whose job was lost are queued again."""
    return await delivery.retry_stalled(ctx["services"])
