"""The adversary runs' background job, declared (server/core/jobs.py); job_functions.py runs it."""

from __future__ import annotations

from server.core.jobs import job


@job
async def run_adversary(run_id: int) -> None:
    """Write the run's examples still missing (counted from rows: a re-run continues, never duplicates)."""
