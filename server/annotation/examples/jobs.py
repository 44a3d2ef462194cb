"""The examples' background jobs, declared (server/core/jobs.py); server/annotation/examples/job_functions.py runs
them."""

from __future__ import annotations

from server.core.jobs import job


@job
async def recheck_pending_examples() -> None:
    """Pending examples judged once their target model answers again (also a cron)."""
