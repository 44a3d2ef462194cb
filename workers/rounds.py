"""Round jobs: counters recomputed from rows (idempotent, safe to retry or run concurrently)."""

from __future__ import annotations

from server.annotation.validation import aggregating


async def recompute_round_counters(ctx: dict, round_id: int) -> dict | None:
    return await aggregating.recount_round(ctx["services"], round_id)
