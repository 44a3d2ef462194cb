"""The webhooks domain's background jobs, declared (server/core/jobs.py); server/webhooks/job_functions.py runs them."""

from __future__ import annotations

from typing import Any

from server.core.jobs import job


@job
async def fan_out_webhook_event(event: dict[str, Any]) -> None:
    """One delivery per hook of the event's task that wants it, each's first attempt queued (idempotent)."""


@job
async def deliver_webhook(delivery_id: int, attempt: int) -> None:
    """One attempt of one delivery (an attempt already recorded is not sent again)."""
