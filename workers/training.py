"""Retraining jobs: build a new target model version, load it into the target Triton, evaluate it."""

from __future__ import annotations

from server.training import job


async def train_target_model(ctx: dict, run_id: int) -> str:
    return await job.run_training(ctx["services"], run_id)
