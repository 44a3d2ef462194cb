"""Researchers' models: deploy into the sandboxed Triton, then evaluate on every scoring dataset."""

from __future__ import annotations

from server.evaluation.deploy import deploy
from server.evaluation.evaluate import evaluate


async def deploy_model(ctx: dict, model_id: int) -> str:
    return await deploy(ctx["services"], model_id)


async def evaluate_model(ctx: dict, model_id: int) -> str:
    return await evaluate(ctx["services"], model_id)
