"""Researchers' models: deploy into the sandboxed Triton, then evaluate on every scoring dataset.

Each job reports what comes next (a fresh deployment is evaluated; a model Triton lost is deployed again)
and the chain is queued here, by reference, so the domain modules never import this one."""

from __future__ import annotations

from server.core import jobs
from server.evaluation import deploy, evaluate


async def deploy_model(ctx: dict, model_id: int) -> str:
    services = ctx["services"]
    outcome = await deploy.deploy(services, model_id)
    if outcome.evaluate_next:
        await jobs.enqueue(services.arq, evaluate_model, model_id)
    return str(outcome.status)


async def evaluate_model(ctx: dict, model_id: int) -> str:
    services = ctx["services"]
    outcome = await evaluate.evaluate(services, model_id)
    if outcome.deploy_again:
        await jobs.enqueue(services.arq, deploy_model, model_id)
    return str(outcome.status)
