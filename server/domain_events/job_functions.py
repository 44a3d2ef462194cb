"""What the worker runs for domain events (server/domain_events/jobs.py), and their sweeper and pruner (crons)."""

from __future__ import annotations

from typing import Any

from arq import Retry

from server.core.jobs import runs
from server.domain_events import dispatcher, jobs

RETRY_BASE_S = 1.0
RETRY_MAX_S = 300.0
# An event not marked delivered this long after it was recorded lost its announcing process (the announce runs
# right after the commit and takes milliseconds): the sweeper delivers it.
UNDELIVERED_GRACE_S = 30.0
DELIVERED_KEPT_S = 24 * 3600.0  # delivered events are kept a day for a look, then pruned


@runs(jobs.retry_listener)
async def retry_listener(ctx: dict, listener: str, kind: str, event: dict[str, Any]) -> str:
    try:
        await dispatcher.run_listener(ctx["services"], listener, kind, event)
    except Exception as exc:  # arq's max_tries bounds the retries
        tries = int(ctx.get("job_try") or 1)
        raise Retry(defer=min(RETRY_BASE_S * 2 ** (tries - 1), RETRY_MAX_S)) from exc
    return "ok"


async def deliver_undelivered_events(ctx: dict) -> int:
    """Cron: events whose announcing process died after the commit are delivered."""
    return await dispatcher.deliver_undelivered(ctx["services"], UNDELIVERED_GRACE_S)


async def prune_delivered_events(ctx: dict) -> int:
    return await dispatcher.prune_delivered(DELIVERED_KEPT_S)
