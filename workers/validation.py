"""Validation jobs: an example's outcome recomputed from all of its votes (idempotent)."""

from __future__ import annotations

from server.annotation.validating import aggregate, sweep_unaggregated


async def aggregate_example(ctx: dict, example_id: int) -> str | None:
    return await aggregate(ctx["services"], example_id)


async def sweep_unaggregated_votes(ctx: dict) -> int:
    return await sweep_unaggregated(ctx["services"])
