"""What the worker runs for the battles' jobs (server/annotation/battles/jobs.py): leaderboard.py."""

from __future__ import annotations

from server.annotation.battles import jobs, leaderboard
from server.core.jobs import runs


@runs(jobs.rate_battles)
async def rate_battles(ctx: dict, task_id: int, vote_id: int | None = None) -> dict[str, int]:
    return await leaderboard.rate_task(ctx["services"], task_id, vote_id)
