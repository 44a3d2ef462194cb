"""The evaluation job: batched inference over every scoring dataset (original + perturbed copies), or for a generative
task streamed replies to its prompts (generate.py), performance per task metric and per tag, throughput, memory,
robustness and fairness."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from server.core.inference import MalformedOutput, ModelTimedOut, ModelUnavailable, predict_batch
from server.core.services import Services
from server.evaluation import queries
from server.evaluation.metrics import measures as metrics
from server.evaluation.models import generate
from server.evaluation.models.residency import model_ready
from server.evaluation.models.sandbox_agent import output_note, peak_memory_gb, stop_stuck_model, stopped_models
from server.evaluation.models.status import get_model, record_status
from server.evaluation.records import (
    LIVE_STATUSES,
    NOT_RANKED_MESSAGE,
    DatasetRow,
    ModelRow,
    ModelStatus,
    Perturbation,
)
from server.tasks import reads as task_reads
from server.tasks.config import TaskConfig
from server.tasks.service import load_config

BATCH = 32
PARALLEL_BATCHES = 2
# Answers compared as text (SQuAD-normalized) for robustness and fairness: extractive answers and generated replies.
TEXT_ANSWERS = ("extractive_qa", "generative")


def prediction(config: TaskConfig, output: dict) -> str:
    return output["label"] if config.kind == "classification" else output["answer"]


async def batch_size(client, name: str, version: str = "") -> int:
    """BATCH, or less when the model's own config accepts smaller batches (any max_batch_size >= 1 is valid)."""
    try:
        config = await client.get_model_config(name, model_version=version)
    except Exception:  # noqa: BLE001 — unreachable or unloaded: the batches themselves will say so
        return BATCH
    declared = config.get("max_batch_size", BATCH) if isinstance(config, dict) else BATCH
    return max(1, min(BATCH, int(declared) or BATCH))


async def infer_all(
    services: Services, config: TaskConfig, name: str, rows: Sequence[Mapping[str, Any]], client=None, version: str = ""
) -> tuple[list[str], float]:
    """Predictions in row order, and the wall seconds spent in inference alone (default: the submissions Triton)."""
    client = client or services.triton_submissions
    size = await batch_size(client, name, version)
    batches = [rows[i : i + size] for i in range(0, len(rows), size)]
    results: list[list[str]] = [[] for _ in batches]
    semaphore = asyncio.Semaphore(PARALLEL_BATCHES)

    async def run(index: int, batch: Sequence[Mapping[str, Any]]) -> None:
        async with semaphore:
            outputs = await predict_batch(
                client,
                config,
                name,
                [r["fields"] for r in batch],
                timeout_s=services.settings.evaluation_batch_timeout_s,
                model_version=version,
            )
            results[index] = [prediction(config, o) for o in outputs]

    started = time.perf_counter()
    await asyncio.gather(*(run(i, b) for i, b in enumerate(batches)))
    return [p for batch in results for p in batch], time.perf_counter() - started


class Evaluation(NamedTuple):
    """The job's result, whether the model must be deployed again first (its deploy job comes next), and in how
    many seconds the same job runs again (the model's Triton was away)."""

    status: str
    deploy_again: bool = False
    retry_in_s: float | None = None


async def evaluate(services: Services, model_id: int, attempt: int = 1) -> Evaluation:
    model = await get_model(model_id)
    name = model["triton_name"]
    if model["status"] not in LIVE_STATUSES:
        return Evaluation(model["status"])
    if not await model_ready(services.triton_submissions, model["triton_name"]):
        # Triton restarted since the deploy: deploy again, which queues this job once more.
        again = await record_status(
            services, model_id, ModelStatus.UPLOADED, "The model is no longer loaded in Triton; deploying again.", name
        )
        return Evaluation(ModelStatus.UPLOADED, deploy_again=bool(again))
    task = await task_reads.task_by_id(model["task"])
    assert task is not None  # models.task is a foreign key
    config = load_config(task)
    datasets = await queries.scoring_datasets(task["id"])
    if not datasets:
        # Nothing to rank it on: a distinct outcome, never "evaluated"; adding a scoring dataset evaluates it
        # (datasets_service → pipeline.after_scoring_dataset).
        await record_status(services, model_id, ModelStatus.NOT_RANKED, NOT_RANKED_MESSAGE, name)
        return Evaluation(ModelStatus.NOT_RANKED)
    await record_status(services, model_id, ModelStatus.EVALUATING, f"Evaluating on {len(datasets)} scoring dataset(s).", name)
    try:
        for dataset in datasets:
            summary = await _evaluate_dataset(services, config, model, dataset)
            await record_status(services, model_id, ModelStatus.EVALUATING, summary, name)
    except ModelTimedOut as exc:
        # A batch took longer than EVALUATION_BATCH_TIMEOUT_S: the model's code is stuck or far too
        # slow to rank; retrying would only wait again.
        await stop_stuck_model(services, model["triton_name"])
        message = f"Evaluation failed: {exc}, the time limit of one batch; its processes were stopped."
        await record_status(services, model_id, ModelStatus.FAILED, message, name)
        return Evaluation(ModelStatus.FAILED)
    except ModelUnavailable as exc:
        return await _interrupted(services, model, exc, attempt)
    await record_status(services, model_id, ModelStatus.EVALUATED, f"Scores stored for {len(datasets)} dataset(s).", name)
    return Evaluation(ModelStatus.EVALUATED)


async def _interrupted(services: Services, model: ModelRow, exc: ModelUnavailable, attempt: int) -> Evaluation:
    """A final status with the reason when asking again cannot help (broken outputs, a model the sandbox stopped,
    the last attempt); else the model back to `deployed` and the job again in a while."""
    name, settings = model["triton_name"], services.settings
    stopped = (await stopped_models(services)).get(name)
    if stopped or isinstance(exc, MalformedOutput) or attempt >= settings.evaluation_attempts:
        if stopped:
            message = f"Evaluation failed: the sandbox stopped the model: {stopped}."
        elif isinstance(exc, MalformedOutput):
            message = f"Evaluation failed: {exc}."
        else:
            message = f"Evaluation failed after {attempt} attempt(s): {exc}."
        await stop_stuck_model(services, name)  # its processes and memory go with it
        await record_status(services, model["id"], ModelStatus.FAILED, message + await output_note(services, name), name)
        return Evaluation(ModelStatus.FAILED)
    retry = settings.evaluation_retry_s
    message = f"Evaluation interrupted: {exc}; attempt {attempt + 1} of {settings.evaluation_attempts} in {retry:g} s."
    await record_status(services, model["id"], ModelStatus.DEPLOYED, message, name)
    return Evaluation(ModelStatus.DEPLOYED, retry_in_s=retry)


async def measure_dataset(
    services: Services, config: TaskConfig, model_name: str, dataset: Mapping[str, Any], client=None, version: str = ""
) -> dict | None:
    """The evaluation metrics of one model (version) on one dataset; None when it has no original rows."""
    rows = await queries.dataset_examples(dataset["id"])
    originals = [r for r in rows if r["perturbation"] == Perturbation.ORIGINAL]
    perturbed = [r for r in rows if r["perturbation"] != Perturbation.ORIGINAL]
    if not originals:
        return None
    if config.kind == "generative":  # replies, streamed; throughput counts their pieces (tokens) per second
        predictions, seconds, units = await generate.replies_all(services, config, model_name, originals, client, version)
        perturbed_predictions = (
            (await generate.replies_all(services, config, model_name, perturbed, client, version))[0] if perturbed else []
        )
    else:
        predictions, seconds = await infer_all(services, config, model_name, originals, client, version)
        perturbed_predictions, _ = (
            await infer_all(services, config, model_name, perturbed, client, version) if perturbed else ([], 0.0)
        )
        units = len(originals)
    golds = [r["gold"] for r in originals]
    own = {r["uid"]: p for r, p in zip(originals, predictions)}
    copies: dict[str, list] = {Perturbation.ROBUSTNESS: [], Perturbation.FAIRNESS: []}
    for r, p in zip(perturbed, perturbed_predictions):
        copies[r["perturbation"]].append((r["original_uid"], p))
    return {
        "n": len(originals),
        "perf": metrics.performance(config.performance_metric, golds, predictions, config.labels),
        "perf_by_tag": metrics.per_tag(
            config.performance_metric, [(r["tags"], r["gold"], p) for r, p in zip(originals, predictions)], config.labels
        ),
        "throughput": units / seconds if seconds > 0 else None,
        "robustness": metrics.consistency(own, copies[Perturbation.ROBUSTNESS], qa=config.kind in TEXT_ANSWERS),
        "fairness": metrics.consistency(own, copies[Perturbation.FAIRNESS], qa=config.kind in TEXT_ANSWERS),
    }


async def _evaluate_dataset(services: Services, config: TaskConfig, model: ModelRow, dataset: DatasetRow) -> str:
    measured = await measure_dataset(services, config, model["triton_name"], dataset)
    if measured is None:
        return f"{dataset['name']}: no examples"
    perf = measured["perf"]
    values = {**measured, "memory_gb": await peak_memory_gb(services, model["triton_name"])}
    await queries.upsert_score(model["id"], dataset["id"], values)
    unit = "tokens/s" if config.kind == "generative" else "examples/s"
    return (
        f"{dataset['name']}: {config.performance_metric} {perf:.2f} on {measured['n']} examples, "
        f"{values['throughput'] or 0:.1f} {unit}"
    )
