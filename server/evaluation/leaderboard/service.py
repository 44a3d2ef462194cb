"""The Dynaboard leaderboard: dataset-weighted metrics per model, ranked by Dynascore."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from asyncpg.exceptions import UniqueViolationError

from server import permissions
from server.accounts.viewer import Viewer
from server.core.errors import FieldProblem, ServiceError, conflict, invalid, not_found
from server.core.i18n import tr
from server.core.jsonutil import from_json
from server.core.storable import text_problem
from server.evaluation import queries
from server.evaluation.leaderboard.dynascore import (
    compute_dynascores,
    compute_resolved_dynascores,
    dataset_weighted_metrics,
    priced_metrics,
    rank,
)
from server.evaluation.records import DatasetRow, LeaderboardConfigRow, ModelRow, ScoreRow
from server.tasks.config import METRICS
from server.tasks.records import TaskRow
from server.tasks.service import load_config

SCORE_METRICS = {
    "perf": "perf",
    "throughput": "throughput",
    "memory": "memory_gb",
    "robustness": "robustness",
    "fairness": "fairness",
}


@dataclass
class LeaderboardEntry:
    rank: int
    model: ModelRow
    dynascore: float
    metrics: dict[str, float | None]
    per_dataset: list[dict[str, Any]]
    details: Any = None


@dataclass
class Leaderboard:
    entries: list[LeaderboardEntry]
    metric_weights: dict[str, float]
    dataset_weights: dict[int, float]
    datasets: list[DatasetRow] = field(default_factory=list)
    priced: list[str] = field(default_factory=lambda: ["perf"])  # metrics whose weight can move scores now


def check_weights(metric_weights: dict[str, float]) -> None:
    for metric, weight in metric_weights.items():
        if metric not in METRICS:
            raise invalid(
                tr("Unknown metric."),
                FieldProblem(
                    "metricWeights", tr("{metric!r} is not one of {metrics}", metric=metric, metrics=", ".join(METRICS))
                ),
            )
        if not 0 <= weight <= 1000:
            raise invalid(
                tr("Bad weight."), FieldProblem("metricWeights", tr("{metric}: weights are between 0 and 1000", metric=metric))
            )
    if metric_weights and not any(weight > 0 for weight in metric_weights.values()):
        raise invalid(tr("At least one metric needs a positive weight."), FieldProblem("metricWeights", tr("all weights are 0")))


async def build(
    task: TaskRow,
    viewer: Viewer | None,
    metric_weights: dict[str, float] | None,
    dataset_weights: dict[int, float] | None,
    exact_dynaboard: bool = False,
) -> Leaderboard:
    """The ranked leaderboard. By default Dynascores are resolved (each metric's measurement resolution, terms counted
    from the worst model: dynascore.compute_resolved_dynascores); `exact_dynaboard` reproduces Dynaboard's numbers."""
    config = load_config(task)
    denied = permissions.view_leaderboard(viewer, task, config.dynascore.leaderboard == "private")
    if denied is not None:
        raise ServiceError(denied.code, denied.message)
    weights = {**config.dynascore.weights, **(metric_weights or {})}
    check_weights(weights)
    datasets = await queries.scoring_datasets(task["id"])
    d_weights = {d["id"]: float(d["weight"]) for d in datasets}
    for dataset_id, weight in (dataset_weights or {}).items():
        if dataset_id not in d_weights or not 0 <= weight <= 1000:
            raise invalid(
                tr("Bad dataset weight."),
                FieldProblem(
                    "datasetWeights",
                    tr(
                        "dataset {dataset_id}: not a scoring dataset of this task, or weight outside 0–1000",
                        dataset_id=dataset_id,
                    ),
                ),
            )
        d_weights[dataset_id] = weight
    counted = {d for d, w in d_weights.items() if w > 0}
    models = await _visible_models(task["id"], viewer)
    scores = await queries.scores_of_models([m["id"] for m in models])
    by_model: dict[int, list[ScoreRow]] = {}
    for score in scores:
        by_model.setdefault(score["model"], []).append(score)
    metrics_by_model: dict[int, dict[str, float]] = {}
    for model in models:
        rows = [s for s in by_model.get(model["id"], []) if s["dataset"] in d_weights]
        if not counted or not counted <= {s["dataset"] for s in rows}:
            continue  # Dynascore ranks only models scored on every (weighted) scoring dataset
        per_dataset = [(s["dataset"], {m: s[column] for m, column in SCORE_METRICS.items()}) for s in rows]
        metrics_by_model[model["id"]] = dataset_weighted_metrics(per_dataset, d_weights)
    compute = compute_dynascores if exact_dynaboard else compute_resolved_dynascores
    results = compute(metrics_by_model, weights, memory_budget_gb=config.dynascore.memory_budget_gb)
    model_by_id = {m["id"]: m for m in models}
    entries = []
    for position, (model_id, result) in enumerate(rank(results), start=1):
        per_dataset = [
            {"dataset_id": s["dataset"], **{m: s[column] for m, column in SCORE_METRICS.items()}} for s in by_model[model_id]
        ]
        entries.append(
            LeaderboardEntry(position, model_by_id[model_id], result.dynascore, metrics_by_model[model_id], per_dataset, result)
        )
    return Leaderboard(entries, weights, d_weights, datasets, priced_metrics(results.values()))


async def _visible_models(task_id: int, viewer: Viewer | None) -> list[ModelRow]:
    return [m for m in await queries.evaluated_models(task_id) if permissions.can_view_model(viewer, m)]


async def save_config(
    task: TaskRow, owner_id: int, name: str, metric_weights: dict[str, float], dataset_weights: dict[int, float]
) -> LeaderboardConfigRow:
    name = name.strip()
    if not 1 <= len(name) <= 100 or text_problem(name):
        raise invalid(tr("Bad name."), FieldProblem("name", tr("1–100 characters of text")))
    check_weights(metric_weights)
    try:
        return await queries.insert_leaderboard_config(
            task["id"], owner_id, name, metric_weights, {str(k): v for k, v in dataset_weights.items()}
        )
    except UniqueViolationError:
        raise conflict(tr("A leaderboard configuration named {name!r} exists for this task.", name=name), "name") from None


async def get_config(task_id: int, name: str) -> LeaderboardConfigRow:
    if text_problem(name):
        raise not_found(tr("That leaderboard configuration"))
    row = await queries.leaderboard_config(task_id, name)
    if row is None:
        raise not_found(tr("Leaderboard configuration {name!r}", name=name))
    return row


async def saved_weights(task_id: int, config_name: str | None) -> tuple[dict[str, float], dict[int, float]]:
    """The metric and dataset weights saved under `config_name` ({} and {} without a name)."""
    if not config_name:
        return {}, {}
    saved = await get_config(task_id, config_name)
    return from_json(saved["metric_weights"]), {int(k): v for k, v in from_json(saved["dataset_weights"]).items()}
