"""The evaluation domain's background jobs, declared (server/core/jobs.py); server/evaluation/job_functions.py runs
them: a researcher's model deployed then evaluated (server/evaluation/models/pipeline.py chains them), and contamination
checks (docs/design.md §4.9)."""

from __future__ import annotations

from server.core.jobs import job


@job
async def deploy_model(model_id: int) -> None:
    """Load a researcher's model into the sandboxed Triton and smoke-test it; a fresh deployment is evaluated next."""


@job
async def evaluate_model(model_id: int) -> None:
    """Score a deployed model on every scoring dataset of its task; a model Triton lost is deployed again."""


@job
async def check_dataset_contamination(dataset_id: int) -> None:
    """A new dataset compared with the task's collected examples, its models' training data and its other datasets."""


@job
async def check_round_contamination(round_id: int) -> None:
    """A round opened from a retrained model: its target's training data compared with the task's datasets."""
