"""The retraining job's body: train, load the new version into the target Triton, evaluate it, publish it.

The job recomputes everything from the run's row (the validated examples of the chosen rounds are read
again), so a retry after a killed worker builds the same version number again and ends in the same state.
What the run says it trained on (`n_validated`, `trained_on`) is the training code's own count of the
validated examples it drew into batches (server/modelbuild/mixing.py), recorded once the build is written.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from server.core import events
from server.core.errors import not_found
from server.core.i18n import tr
from server.core.services import Services
from server.evaluation import reads as evaluation_reads
from server.evaluation.models.evaluate import measure_dataset
from server.tasks import reads as task_reads
from server.tasks.config import TaskConfig
from server.tasks.service import load_config
from server.training import queries
from server.training.records import ACTIVE_STATUSES, TrainedOn, TrainingStatus, log_entry


async def _record(
    services: Services, run_id: int, status: TrainingStatus | None = None, message: str | None = None, **values: Any
) -> None:
    entry = log_entry(status or TrainingStatus.TRAINING, message) if message is not None else None
    await queries.record(run_id, status, entry, values)
    await events.publish(services.redis, events.TrainingChanged(run_id=run_id, status=status.value if status else None))


async def run_training(services: Services, run_id: int) -> str:
    """The arq job's body: train, load into the target Triton, evaluate, publish."""
    from server.modelbuild.progress import BuildError
    from server.modelbuild.retrain import build_next_version, spec_for_model, training_rows

    run = await queries.run_by_id(run_id)
    if run is None:
        raise not_found(tr("That training run"))
    if run["status"] not in ACTIVE_STATUSES:
        return run["status"]
    task = await task_reads.task_by_id(run["task"])
    config = load_config(task)
    spec = spec_for_model(run["model_name"])
    repository = Path(services.settings.target_model_repository)
    examples = []
    for row in await queries.validated_examples(task["id"], run["from_rounds"]):
        stored, context = row["input"], row["context"]
        examples.append(
            {
                "id": row["id"],
                "fields": {**context, **stored},
                "label": stored.get("label"),
                "answer": stored.get("answer"),
                "answer_start": stored.get("answer_start"),
            }
        )
    extra = training_rows(spec, examples)
    skipped = (
        f" ({len(examples) - len(extra)} of them lack an input or label the model takes)" if len(extra) < len(examples) else ""
    )
    await _record(
        services,
        run_id,
        TrainingStatus.TRAINING,
        f"Training {spec.model_name} ({run['profile']} profile) on the seed data plus every usable one of the "
        f"{len(examples)} validated examples of rounds {run['from_rounds'] or 'none'}{skipped}.",
        progress=0.0,
    )
    loop = asyncio.get_running_loop()
    last = [0.0]

    def on_event(event) -> None:  # called from the training thread
        if event.stage == "train" and event.total and time.monotonic() - last[0] > 1.0:
            last[0] = time.monotonic()
            share = round(0.9 * event.step / event.total, 3)
            asyncio.run_coroutine_threadsafe(_record(services, run_id, progress=share), loop)

    try:
        version, meta = await asyncio.to_thread(
            build_next_version, spec, repository, extra, run["profile"], run["base_model"] or None, on_event
        )
    except (BuildError, OSError, ValueError) as exc:
        await _record(services, run_id, TrainingStatus.FAILED, f"Training failed: {exc}")
        return TrainingStatus.FAILED.value
    score = meta.get("heldout_accuracy", meta.get("heldout_f1"))
    trained = meta["validated"]
    await _record(
        services,
        run_id,
        TrainingStatus.EVALUATING,
        f"Built version {version} from {meta.get('n_seed_train')} seed rows and {trained['trained']} validated examples "
        f"({trained['share']:.0%} of the training draws, each drawn at least {trained['min_draws']} time(s); ids digest "
        f"{trained['digest'][:12]}): held-out {meta.get('heldout_metric')} {score}; loading it into the target Triton.",
        n_validated=trained["trained"],
        trained_on=_trained_on(meta, len(examples)),
        model_version=str(version),
        progress=0.9,
        metrics={"heldout_metric": meta.get("heldout_metric"), "heldout": score, "scores": []},
    )
    try:
        await asyncio.wait_for(services.triton.load_model(spec.model_name), timeout=600)
    except Exception as exc:  # noqa: BLE001 — Triton's own message is what the owner needs
        await _record(services, run_id, TrainingStatus.FAILED, f"Triton did not load version {version}: {exc}")
        return TrainingStatus.FAILED.value
    scores = await _evaluate(services, task["id"], config, spec.model_name, str(version))
    await _record(
        services,
        run_id,
        TrainingStatus.PUBLISHED,
        f"Version {version} is live in the target Triton; scored "
        f"on {len(scores)} scoring dataset(s). Open the next round with it (openNextRound).",
        progress=1.0,
        metrics={"heldout_metric": meta.get("heldout_metric"), "heldout": score, "scores": scores},
    )
    return TrainingStatus.PUBLISHED.value


def _trained_on(meta: dict, read: int) -> TrainedOn:
    """The run's record of what the build trained on (the ids themselves stay in the version's metadata.json)."""
    trained = meta["validated"]
    return {
        "validated": trained["trained"],
        "available": trained["available"],
        "read": read,
        "by_label": trained["by_label"],
        "digest": trained["digest"],
        "share": trained["share"],
        "min_draws": trained["min_draws"],
        "seed": meta.get("n_seed_train", 0),
        "steps": meta.get("train_steps", 0),
    }


async def _evaluate(services: Services, task_id: int, config: TaskConfig, model_name: str, version: str) -> list[dict]:
    """This exact version on each of the task's scoring datasets, with the evaluation job's metrics."""
    scores = []
    for dataset in await evaluation_reads.scoring_datasets(task_id):
        measured = await measure_dataset(services, config, model_name, dataset, client=services.triton, version=version)
        if measured is not None:
            scores.append({"dataset": dataset["name"], **measured})
    return scores
