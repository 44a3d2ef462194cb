"""Pending examples: judge them once their target model answers again (runs on a schedule and on demand)."""

from __future__ import annotations

from server.annotation.examples import pending


async def recheck_pending_examples(ctx: dict) -> dict[str, int]:
    totals = {"claimed": 0, "settled": 0, "woken": await pending.wake_pending_of_ready_models(ctx["services"])}
    # Drain in batches so a backlog after an outage clears in one run.
    for _ in range(100):
        result = await pending.recheck_pending(ctx["services"])
        totals = {**totals, **{k: totals[k] + result[k] for k in result}}
        if result["claimed"] == 0:
            break
    return totals
