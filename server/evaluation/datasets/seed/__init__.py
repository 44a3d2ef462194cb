"""The scoring dataset each built-in task ships with, so that a submission to a demo task is ranked.

`<task code>.jsonl` here is in the createDataset upload format (one row per line: `uid`, the task's model
inputs, `label` or `answers`, `tags`). Every sentence, premise, passage and question was written for this
project (no third-party corpus): about 80–100 rows per task, labels balanced and interleaved, tags for per-tag
metrics (domain or genre, and phenomena such as negation, sarcasm or counter-speech). The demo generative task's
(`chat_demo.jsonl`, seeded when that task exists) holds 52 simple factual questions (`prompt`) with short reference
answers (`reference`), tagged by subject, scored by token F1. They are stored like
an uploaded dataset (`datasets_service.store_dataset`, perturbed copies included) as a SCORING dataset named
`SEED_DATASET_NAME`, by the seed step of `dynabench migrate` and `dynabench up`.
"""

from __future__ import annotations

from pathlib import Path

from server.core.errors import ServiceError
from server.evaluation import queries
from server.evaluation.datasets import service as datasets_service
from server.evaluation.records import DatasetAccess
from server.tasks import reads as task_reads
from server.tasks.builtin import BUILTIN_TASKS, GENERATIVE_DEMO
from server.tasks.service import load_config

SEED_DIR = Path(__file__).parent
SEED_DATASET_NAME = "demo-scoring-v1"


def seed_dataset_path(code: str) -> Path:
    return SEED_DIR / f"{code}.jsonl"


async def seed_scoring_datasets() -> list[str]:
    """Add the shipped scoring dataset to each built-in task that lacks it (a dataset of that name); the codes
    of the tasks it was added to. Idempotent: a second run, or one racing another, adds nothing. Queues no
    evaluation (`migrate` runs without Redis): on a fresh install no model exists yet, and after an upgrade the
    worker's cron evaluates the tasks' not ranked models (server/evaluation/models/pipeline.py `rank_not_ranked`)."""
    added = []
    for spec in [*BUILTIN_TASKS, GENERATIVE_DEMO]:
        task = await task_reads.task_by_code(spec["code"])
        if task is None:
            continue  # seed_builtin_tasks runs first (the demo generative task only when asked); one removed by hand stays
        if any(d["name"] == SEED_DATASET_NAME for d in await queries.datasets_of_task(task["id"])):
            continue
        config = load_config(task)
        with seed_dataset_path(spec["code"]).open("rb") as stream:
            rows = datasets_service.parse_jsonl(stream, config)
        try:
            await datasets_service.store_dataset(
                config, task["id"], None, SEED_DATASET_NAME, DatasetAccess.SCORING.value, 1.0, rows
            )
        except ServiceError as error:
            if error.code != "CONFLICT":
                raise
            continue  # another seed run stored it first
        added.append(spec["code"])
    return added
