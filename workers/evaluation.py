"""Researchers' models: deploy into the sandboxed Triton, then evaluate on every scoring dataset.

Each job runs its step, then hands the outcome to server/evaluation/pipeline.py, which queues the next one
(a fresh deployment is evaluated; a model Triton lost is deployed again)."""

from __future__ import annotations

from server.evaluation import deploy, evaluate, pipeline, residency


async def deploy_model(ctx: dict, model_id: int) -> str:
    services = ctx["services"]
    outcome = await deploy.deploy(services, model_id)
    await pipeline.after_deploy(services, model_id, outcome)
    return str(outcome.status)


async def evaluate_model(ctx: dict, model_id: int) -> str:
    services = ctx["services"]
    outcome = await evaluate.evaluate(services, model_id)
    await pipeline.after_evaluation(services, model_id, outcome)
    return str(outcome.status)


async def rank_not_ranked_models(ctx: dict) -> int:
    """Cron: a not ranked model whose task has a scoring dataset now (e.g. one `dynabench migrate` seeded)
    is evaluated; the number queued."""
    return await pipeline.rank_not_ranked(ctx["services"])


async def keep_round_targets_loaded(ctx: dict) -> int:
    """Cron: every submission that judges an open round is loaded in the submissions Triton (again, after
    the sandbox restarted); the number that could not be."""
    return await residency.keep_round_targets_loaded(ctx["services"])
