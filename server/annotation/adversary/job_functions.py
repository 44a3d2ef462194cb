"""What the worker runs for adversary runs (server/annotation/adversary/jobs.py): runner.py."""

from __future__ import annotations

from server.annotation.adversary import jobs, runner
from server.core.jobs import runs


@runs(jobs.run_adversary)
async def run_adversary(ctx: dict, run_id: int) -> str:
    return await runner.run(ctx["services"], run_id)
