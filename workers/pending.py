"""Pending examples: judge them once their target model answers again (runs on a schedule and on demand)."""

from __future__ import annotations

from server.annotation.service import recheck_pending


async def recheck_pending_examples(ctx: dict) -> dict[str, int]:
    totals = {"claimed": 0, "settled": 0}
    # Drain in batches so a backlog after an outage clears in one run.
    for _ in range(100):
        result = await recheck_pending(ctx["services"])
        totals = {k: totals[k] + result[k] for k in totals}
        if result["claimed"] == 0:
            break
    return totals
