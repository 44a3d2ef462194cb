"""The seed step of `dynabench migrate` and `dynabench up`: the built-in tasks, then the scoring dataset each ships
with. Composed here, above both domains: the evaluation domain's seed reads the tasks domain's list of built-ins."""

from __future__ import annotations

from server.evaluation.datasets.seed import seed_scoring_datasets
from server.tasks.builtin import seed_builtin_tasks


async def seed_builtin() -> list[str]:
    """The built-in tasks and the demo generative task (their codes when created), then the scoring datasets.
    Idempotent."""
    created = await seed_builtin_tasks(generative_demo=True)
    await seed_scoring_datasets()
    return created
