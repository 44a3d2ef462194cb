"""The deploy → evaluate chain of a researcher's model: after each step, queue the one that comes next.

A fresh deployment is followed by its evaluation; an evaluation that finds the model gone from Triton
is followed by a new deployment (which queues the evaluation once more). The jobs are named by
reference (server/core/jobs.py). workers/evaluation.py imports this module, so the worker module is
imported here only when a job is queued, not when this module is loaded.
"""

from __future__ import annotations

from server.core import jobs
from server.core.services import Services
from server.evaluation.deploy import Deployment
from server.evaluation.evaluate import Evaluation


async def after_deploy(services: Services, model_id: int, deployment: Deployment) -> None:
    """Queue the evaluation of a model that was just deployed; nothing otherwise."""
    from workers import evaluation as evaluation_jobs  # deferred: that module imports this one

    if deployment.evaluate_next:
        await jobs.enqueue(services.arq, evaluation_jobs.evaluate_model, model_id)


async def after_evaluation(services: Services, model_id: int, evaluation: Evaluation) -> None:
    """Queue a new deployment of a model that Triton lost during evaluation; nothing otherwise."""
    from workers import evaluation as evaluation_jobs  # deferred: that module imports this one

    if evaluation.deploy_again:
        await jobs.enqueue(services.arq, evaluation_jobs.deploy_model, model_id)
