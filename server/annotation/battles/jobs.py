"""The battles' background jobs, declared (server/core/jobs.py); server/annotation/battles/job_functions.py runs them."""

from __future__ import annotations

from server.core.jobs import job


@job
async def rate_battles(task_id: int) -> None:
    """A task's battle leaderboard, whole and per round, computed from its rows and cached (after a vote)."""
