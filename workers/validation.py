"""Validation jobs: an example's outcome recomputed from all of its votes (idempotent)."""

from __future__ import annotations

from server.annotation.validation import aggregating


async def aggregate_example(ctx: dict, example_id: int) -> str | None:
    return await aggregating.aggregate(ctx["services"], example_id)


async def sweep_unaggregated_votes(ctx: dict) -> int:
    return await aggregating.sweep_unaggregated(ctx["services"])
