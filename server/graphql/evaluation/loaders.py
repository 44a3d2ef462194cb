"""DataLoaders of researchers' models, datasets and scores."""

from __future__ import annotations

from collections.abc import Callable

from strawberry.dataloader import DataLoader

from server.evaluation import queries
from server.evaluation.datasets import contamination_queries
from server.evaluation.records import DatasetRow, ModelRow, ScoreRow


def _models() -> DataLoader[int, ModelRow | None]:
    async def load(ids: list[int]) -> list[ModelRow | None]:
        by_id = {row["id"]: row for row in await queries.models_by_id(ids)}
        return [by_id.get(i) for i in ids]

    return DataLoader(load_fn=load)


def _datasets() -> DataLoader[int, DatasetRow | None]:
    async def load(ids: list[int]) -> list[DatasetRow | None]:
        by_id = {row["id"]: row for row in await queries.datasets_by_id(ids)}
        return [by_id.get(i) for i in ids]

    return DataLoader(load_fn=load)


def _example_counts() -> DataLoader[int, int]:
    """Examples as uploaded per dataset (perturbed copies not counted)."""

    async def load(ids: list[int]) -> list[int]:
        counts = await queries.original_example_counts(ids)
        return [counts.get(i, 0) for i in ids]

    return DataLoader(load_fn=load)


def _scores() -> DataLoader[int, list[ScoreRow]]:
    """Each model's scores, ordered by dataset."""

    async def load(ids: list[int]) -> list[list[ScoreRow]]:
        by_model = await queries.scores_by_model(ids)
        return [by_model.get(i, []) for i in ids]

    return DataLoader(load_fn=load)


def _dataset_contamination() -> DataLoader[int, dict | None]:
    """Each dataset's stored contamination report ({"report", "computed_at"}), or None before its check ran."""

    async def load(ids: list[int]) -> list[dict | None]:
        found = await contamination_queries.dataset_reports(ids)
        return [found.get(i) for i in ids]

    return DataLoader(load_fn=load)


def _round_contamination() -> DataLoader[int, dict | None]:
    """Each round's stored contamination report, or None (a round not opened from a retrained model has none)."""

    async def load(ids: list[int]) -> list[dict | None]:
        found = await contamination_queries.round_reports(ids)
        return [found.get(i) for i in ids]

    return DataLoader(load_fn=load)


def _has_scoring_dataset() -> DataLoader[int, bool]:
    """By task id: whether the task has a scoring dataset (without one its submissions are not ranked)."""

    async def load(ids: list[int]) -> list[bool]:
        found = await queries.tasks_with_scoring_datasets(ids)
        return [i in found for i in ids]

    return DataLoader(load_fn=load)


LOADERS: dict[str, Callable[[], DataLoader]] = {
    "model": _models,
    "dataset": _datasets,
    "dataset_example_count": _example_counts,
    "model_scores": _scores,
    "dataset_contamination": _dataset_contamination,
    "round_contamination": _round_contamination,
    "task_has_scoring_dataset": _has_scoring_dataset,
}
