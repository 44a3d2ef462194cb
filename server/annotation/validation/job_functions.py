"""What the worker runs for validation's jobs (server/annotation/validation/jobs.py): the aggregating side."""

from __future__ import annotations

from server.annotation import badge_awards
from server.annotation.validation import aggregating, jobs
from server.core.jobs import runs


@runs(jobs.aggregate_example)
async def aggregate_example(ctx: dict, example_id: int) -> str | None:
    return await aggregating.aggregate(ctx["services"], example_id)


@runs(jobs.sweep_unaggregated_votes)
async def sweep_unaggregated_votes(ctx: dict) -> int:
    return await aggregating.sweep_unaggregated(ctx["services"])


@runs(jobs.recompute_round_counters)
async def recompute_round_counters(ctx: dict, round_id: int) -> dict | None:
    return await aggregating.recount_round(ctx["services"], round_id)


@runs(jobs.check_badges)
async def check_badges(ctx: dict, task_id: int, user_ids: list[int]) -> int:
    """Idempotent: a badge already announced is not announced again. Returns how many were new."""
    return await badge_awards.check_badges(ctx["services"], task_id, user_ids)
