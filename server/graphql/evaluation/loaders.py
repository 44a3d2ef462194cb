"""DataLoaders of researchers' models, datasets and scores."""

from __future__ import annotations

from collections.abc import Callable

from strawberry.dataloader import DataLoader

from server.evaluation import queries
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


LOADERS: dict[str, Callable[[], DataLoader]] = {
    "model": _models,
    "dataset": _datasets,
    "dataset_example_count": _example_counts,
    "model_scores": _scores,
}
