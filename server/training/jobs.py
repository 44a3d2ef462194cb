"""The training domain's background jobs, declared (server/core/jobs.py); server/training/job_functions.py runs them."""

from __future__ import annotations

from server.core.jobs import job


@job
async def train_target_model(run_id: int) -> None:
    """A retraining run: build a new target model version, load it into the target Triton, evaluate it."""
