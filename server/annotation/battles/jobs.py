"""The battles' background jobs, declared (server/core/jobs.py); server/annotation/battles/job_functions.py runs them."""

from __future__ import annotations

from server.core.jobs import job


@job
async def rate_battles(task_id: int, vote_id: int | None = None) -> None:
    """A task's battle leaderboard, whole and per round, computed from its rows and cached (after the vote `vote_id`;
    nothing when a later vote's job will do it)."""
