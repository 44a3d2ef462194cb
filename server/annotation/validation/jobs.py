"""Validation's background jobs, declared (server/core/jobs.py); server/annotation/validation/job_functions.py runs
them."""

from __future__ import annotations

from server.core.jobs import job


@job
async def aggregate_example(example_id: int) -> None:
    """One example's outcome recomputed from all of its votes, then the counters it moves (idempotent)."""


@job
async def sweep_unaggregated_votes() -> None:
    """Examples with votes no aggregation has seen (a lost job, a killed worker) aggregated (also a cron)."""


@job
async def recompute_round_counters(round_id: int) -> None:
    """A round's counters recomputed from rows (idempotent, safe to retry or run concurrently)."""


@job
async def check_badges(task_id: int, user_ids: list[int]) -> None:
    """The badges these users may have earned on the task, each announced once (server/annotation/badge_awards.py)."""
