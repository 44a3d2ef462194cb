"""What the worker runs for the training domain (server/training/jobs.py): server/training/job.py."""

from __future__ import annotations

from server.core.jobs import runs
from server.training import job, jobs


@runs(jobs.train_target_model)
async def train_target_model(ctx: dict, run_id: int) -> str:
    return await job.run_training(ctx["services"], run_id)
