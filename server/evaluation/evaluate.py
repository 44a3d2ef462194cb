"""The evaluation job: batched inference over every scoring dataset (original + perturbed copies),
performance per task metric and per tag, throughput, memory, robustness and fairness."""

from __future__ import annotations

import asyncio
import time
import urllib.parse
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

import aiohttp

from server.core.inference import ModelUnavailable, predict_batch
from server.core.services import Services
from server.core.triton_clients import unix_get_json
from server.evaluation import metrics, queries
from server.evaluation.deploy import model_ready
from server.evaluation.records import LIVE_STATUSES, DatasetRow, ModelRow, ModelStatus, Perturbation
from server.evaluation.status import get_model, publish_model_event, record_status
from server.tasks import queries as task_queries
from server.tasks.config import TaskConfig
from server.tasks.service import load_config

BATCH = 32
PARALLEL_BATCHES = 2


async def peak_memory_gb(services: Services, triton_name: str) -> float | None:
    """Peak resident memory of the model's stub processes, as the sandbox agent measures it inside
    the sandbox (docs/design.md §4, memory); None when no agent is configured or it cannot say."""
    url = services.settings.triton_submissions_stats_url
    if not url:
        return None
    try:
        answer = await unix_get_json(url, f"/memory/{urllib.parse.quote(triton_name)}")
    except (aiohttp.ClientError, OSError, TimeoutError, ValueError):
        return None
    peak = int(answer.get("peak_bytes") or 0) if isinstance(answer, dict) else 0
    return peak / 1024**3 if peak else None


def prediction(config: TaskConfig, output: dict) -> str:
    return output["label"] if config.kind == "classification" else output["answer"]


async def infer_all(
    services: Services, config: TaskConfig, name: str, rows: Sequence[Mapping[str, Any]], client=None, version: str = ""
) -> tuple[list[str], float]:
    """Predictions in row order, and the wall seconds spent in inference alone (default: the submissions Triton)."""
    client = client or services.triton_submissions
    batches = [rows[i : i + BATCH] for i in range(0, len(rows), BATCH)]
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
    """The job's result, and whether the model must be deployed again first (its deploy job comes next)."""

    status: str
    deploy_again: bool = False


async def evaluate(services: Services, model_id: int) -> Evaluation:
    model = await get_model(model_id)
    if model["status"] not in LIVE_STATUSES:
        return Evaluation(model["status"])
    if not await model_ready(services.triton_submissions, model["triton_name"]):
        # Triton restarted since the deploy: deploy again, which queues this job once more.
        await record_status(model_id, ModelStatus.UPLOADED, "The model is no longer loaded in Triton; deploying again.")
        return Evaluation(ModelStatus.UPLOADED, deploy_again=True)
    task = await task_queries.task_by_id(model["task"])
    assert task is not None  # models.task is a foreign key
    config = load_config(task)
    datasets = await queries.scoring_datasets(task["id"])
    await publish_model_event(
        services, await record_status(model_id, ModelStatus.EVALUATING, f"Evaluating on {len(datasets)} scoring dataset(s).")
    )
    try:
        for dataset in datasets:
            summary = await _evaluate_dataset(services, config, model, dataset)
            await publish_model_event(services, await record_status(model_id, ModelStatus.EVALUATING, summary))
    except ModelUnavailable as exc:
        await publish_model_event(
            services, await record_status(model_id, ModelStatus.DEPLOYED, f"Evaluation interrupted: {exc}; it will be retried.")
        )
        raise
    final = await record_status(model_id, ModelStatus.EVALUATED, f"Scores stored for {len(datasets)} dataset(s).")
    await publish_model_event(services, final)
    return Evaluation(ModelStatus.EVALUATED)


async def measure_dataset(
    services: Services, config: TaskConfig, model_name: str, dataset: Mapping[str, Any], client=None, version: str = ""
) -> dict | None:
    """The evaluation metrics of one model (version) on one dataset; None when it has no original rows."""
    rows = await queries.dataset_examples(dataset["id"])
    originals = [r for r in rows if r["perturbation"] == Perturbation.ORIGINAL]
    perturbed = [r for r in rows if r["perturbation"] != Perturbation.ORIGINAL]
    if not originals:
        return None
    predictions, seconds = await infer_all(services, config, model_name, originals, client, version)
    perturbed_predictions, _ = (
        await infer_all(services, config, model_name, perturbed, client, version) if perturbed else ([], 0.0)
    )
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
        "throughput": len(originals) / seconds if seconds > 0 else None,
        "robustness": metrics.consistency(own, copies[Perturbation.ROBUSTNESS], qa=config.kind == "extractive_qa"),
        "fairness": metrics.consistency(own, copies[Perturbation.FAIRNESS], qa=config.kind == "extractive_qa"),
    }


async def _evaluate_dataset(services: Services, config: TaskConfig, model: ModelRow, dataset: DatasetRow) -> str:
    measured = await measure_dataset(services, config, model["triton_name"], dataset)
    if measured is None:
        return f"{dataset['name']}: no examples"
    perf = measured["perf"]
    values = {**measured, "memory_gb": await peak_memory_gb(services, model["triton_name"])}
    await queries.upsert_score(model["id"], dataset["id"], values)
    return (
        f"{dataset['name']}: {config.performance_metric} {perf:.2f} on {measured['n']} examples, "
        f"{values['throughput'] or 0:.1f} examples/s"
    )
