"""The deploy → evaluate chain of a researcher's model: after each step, queue the one that comes next.

A fresh deployment is followed by its evaluation; an evaluation that finds the model gone from Triton
is followed by a new deployment (which queues the evaluation once more); a new scoring dataset is followed
by the evaluation of every live model of its task (not ranked ones included: now they can be). The jobs are named by
reference to their declarations (server/evaluation/jobs.py).
"""

from __future__ import annotations

from server.core import jobs
from server.core.services import Services
from server.evaluation import jobs as evaluation_jobs
from server.evaluation import queries
from server.evaluation.datasets import contamination_queries
from server.evaluation.models.deploy import Deployment
from server.evaluation.models.evaluate import Evaluation
from server.evaluation.models.status import requeue_not_ranked
from server.evaluation.records import LIVE_STATUSES

REQUEUED = "The task has a scoring dataset now: evaluation queued."


async def after_deploy(services: Services, model_id: int, deployment: Deployment) -> None:
    """Queue the evaluation of a model that was just deployed; nothing otherwise."""
    if deployment.evaluate_next:
        await jobs.enqueue(services.arq, evaluation_jobs.evaluate_model, model_id)


async def after_evaluation(services: Services, model_id: int, evaluation: Evaluation) -> None:
    """Queue a new deployment of a model that Triton lost during evaluation; nothing otherwise."""
    if evaluation.deploy_again:
        await jobs.enqueue(services.arq, evaluation_jobs.deploy_model, model_id)


async def after_scoring_dataset(services: Services, task_id: int) -> int:
    """Queue the evaluation of every live model of the task (evaluated, not ranked, or between steps); the
    number queued. Not ranked ones go back to `deployed` first (their evaluation is queued)."""
    await requeue_not_ranked(services, task_id, REQUEUED)
    model_ids = await queries.model_ids_in(task_id, LIVE_STATUSES)
    for model_id in model_ids:
        await jobs.enqueue(services.arq, evaluation_jobs.evaluate_model, model_id)
    return len(model_ids)


async def rank_not_ranked(services: Services) -> int:
    """The sweeper's half (a worker cron): evaluate the not ranked models of every task that has a scoring
    dataset now, e.g. one the seed step of `dynabench migrate` added (it runs without Redis, so queues nothing)."""
    models = await requeue_not_ranked(services, None, REQUEUED)
    for model in models:
        await jobs.enqueue(services.arq, evaluation_jobs.evaluate_model, model["id"])
    return len(models)


# A dataset's own check is queued when it is added; the sweep leaves it that long before queuing another.
UNREPORTED_GRACE_S = 300
UNREPORTED_PER_SWEEP = 20


async def check_unreported_datasets(services: Services) -> int:
    """The sweeper's other half (a worker cron): queue the contamination check of every dataset that has no report,
    e.g. the scoring datasets the seed step of `dynabench migrate` added (it runs without Redis); the number queued."""
    dataset_ids = await contamination_queries.unreported_datasets(UNREPORTED_GRACE_S, UNREPORTED_PER_SWEEP)
    for dataset_id in dataset_ids:
        await jobs.enqueue(services.arq, evaluation_jobs.check_dataset_contamination, dataset_id)
    return len(dataset_ids)
