"""The domain events' background job, declared (server/core/jobs.py); server/domain_events/job_functions.py runs it."""

from __future__ import annotations

from typing import Any

from server.core.jobs import job


@job
async def retry_listener(listener: str, kind: str, event: dict[str, Any]) -> None:
    """One listener run again on one event, after it failed when the event was announced (retried with backoff)."""
