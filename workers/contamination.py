"""Contamination checks (docs/design.md §4.9): a new dataset, and a round opened from a retrained model, compared
with the task's collected examples, its models' training data and its other datasets."""

from __future__ import annotations

from server.evaluation import contamination_job, pipeline


async def check_dataset_contamination(ctx: dict, dataset_id: int) -> str:
    return await contamination_job.check_dataset(ctx["services"], dataset_id)


async def check_round_contamination(ctx: dict, round_id: int) -> str:
    return await contamination_job.check_round(ctx["services"], round_id)


async def check_unreported_datasets(ctx: dict) -> int:
    """Cron: datasets with no contamination report (those `dynabench migrate` seeded) are checked; the number queued."""
    return await pipeline.check_unreported_datasets(ctx["services"])
