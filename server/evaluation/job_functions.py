"""What the worker runs for the evaluation domain (server/evaluation/jobs.py).

Each deploy or evaluation runs its step, then hands the outcome to server/evaluation/models/pipeline.py, which queues the
next one (a fresh deployment is evaluated; a model Triton lost is deployed again)."""

from __future__ import annotations

import asyncio

from arq import Retry

from server.core.jobs import runs
from server.evaluation import jobs
from server.evaluation.datasets import contamination_check as contamination_job
from server.evaluation.models import deploy, evaluate, pipeline, residency, storage


@runs(jobs.deploy_model)
async def deploy_model(ctx: dict, model_id: int) -> str:
    services = ctx["services"]
    outcome = await deploy.deploy(services, model_id)
    await pipeline.after_deploy(services, model_id, outcome)
    return str(outcome.status)


@runs(jobs.evaluate_model)
async def evaluate_model(ctx: dict, model_id: int) -> str:
    services = ctx["services"]
    outcome = await evaluate.evaluate(services, model_id, attempt=int(ctx.get("job_try") or 1))
    if outcome.retry_in_s is not None:  # the same job again (arq counts the attempts in job_try)
        raise Retry(defer=outcome.retry_in_s)
    await pipeline.after_evaluation(services, model_id, outcome)
    return str(outcome.status)


@runs(jobs.check_dataset_contamination)
async def check_dataset_contamination(ctx: dict, dataset_id: int) -> str:
    return await contamination_job.check_dataset(ctx["services"], dataset_id)


@runs(jobs.check_round_contamination)
async def check_round_contamination(ctx: dict, round_id: int) -> str:
    return await contamination_job.check_round(ctx["services"], round_id)


async def rank_not_ranked_models(ctx: dict) -> int:
    """Cron: a not ranked model whose task has a scoring dataset now (e.g. one `dynabench migrate` seeded)
    is evaluated; the number queued."""
    return await pipeline.rank_not_ranked(ctx["services"])


async def keep_round_targets_loaded(ctx: dict) -> int:
    """Cron: every submission that judges an open round is loaded in the submissions Triton (again, after
    the sandbox restarted); the number that could not be."""
    return await residency.keep_round_targets_loaded(ctx["services"])


async def check_unreported_datasets(ctx: dict) -> int:
    """Cron: datasets with no contamination report (those `dynabench migrate` seeded) are checked; the number queued."""
    return await pipeline.check_unreported_datasets(ctx["services"])


async def sweep_storage(ctx: dict) -> int:
    """Cron: the model store's leftovers and expired archives (models/storage.py), and export archives' temporary
    folders a crash left (annotation/exports); the number of entries removed."""
    from server.annotation.exports.service import sweep_scratch

    settings = ctx["services"].settings
    removed = await storage.sweep_model_store(settings)
    return len(removed) + len(await asyncio.to_thread(sweep_scratch, settings.export_scratch_dir or None))
