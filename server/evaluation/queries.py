"""The evaluation domain's query room: every statement on models, datasets, their examples, scores and saved
leaderboard weightings (hand-written SQL as `Query` constants, the rest through Piccolo's query builder)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, cast

from server.core.jsonutil import to_json
from server.core.sql import Query
from server.evaluation.records import (
    DatasetAccess,
    DatasetExampleRow,
    DatasetRow,
    LeaderboardConfigRow,
    ModelRow,
    ModelStatus,
    Perturbation,
    ScoreRow,
)
from server.evaluation.tables import Dataset, DatasetExample, LeaderboardConfig, Model, Score

INSERT_BATCH = 1000  # dataset examples per INSERT statement

# Models -----------------------------------------------------------------------------------------

# Appends to the log and sets the status in one statement, so concurrent jobs never lose an entry.
RECORD_STATUS = Query(
    """
    UPDATE models SET status = :status, status_log = status_log || :entries::jsonb WHERE id = :id RETURNING *
""",
    json=("card", "status_log"),
)


async def record_status(model_id: int, status: ModelStatus, entries: list[dict[str, str]]) -> ModelRow | None:
    row = await RECORD_STATUS.row(status=str(status), entries=to_json(entries), id=model_id)
    return cast(ModelRow | None, row)


async def model(model_id: int) -> ModelRow | None:
    return cast(ModelRow | None, await Model.select().where(Model.id == model_id).first().output(load_json=True))


async def models_by_id(ids: Sequence[int]) -> list[ModelRow]:
    return cast(list[ModelRow], await Model.select().where(Model.id.is_in(list(ids) or [-1])).output(load_json=True))


async def models_of_owner(owner_id: int, task_id: int | None, limit: int) -> list[ModelRow]:
    """Newest first."""
    query = Model.select().where(Model.owner == owner_id)
    if task_id is not None:
        query = query.where(Model.task == task_id)
    return cast(list[ModelRow], await query.order_by(Model.id, ascending=False).limit(limit).output(load_json=True))


async def evaluated_models(task_id: int) -> list[ModelRow]:
    rows = await Model.select().where(Model.task == task_id, Model.status == ModelStatus.EVALUATED).output(load_json=True)
    return cast(list[ModelRow], rows)


async def model_ids_in(task_id: int, statuses: Iterable[ModelStatus]) -> list[int]:
    rows = await Model.select(Model.id).where(Model.task == task_id, Model.status.is_in(list(statuses)))
    return [r["id"] for r in rows]


async def insert_model(
    task_id: int,
    owner_id: int,
    name: str,
    card: dict[str, Any],
    anonymous: bool,
    status: ModelStatus,
    status_log: list[dict[str, str]],
) -> ModelRow:
    rows = await Model.insert(
        Model(
            task=task_id,
            owner=owner_id,
            name=name,
            card=card,
            anonymous=anonymous,
            status=status,
            status_log=status_log,
        )
    ).returning(*Model.all_columns())
    return cast(ModelRow, rows[0])


async def set_triton_name(model_id: int, triton_name: str, triton_version: str) -> None:
    await Model.update({Model.triton_name: triton_name, Model.triton_version: triton_version}).where(Model.id == model_id)


async def set_published(model_id: int, published: bool) -> None:
    await Model.update({Model.published: published}).where(Model.id == model_id)


# Datasets and their examples --------------------------------------------------------------------

ORIGINAL_EXAMPLE_COUNTS = Query("""
    SELECT dataset, count(*) AS n FROM dataset_examples
     WHERE dataset = ANY(:ids) AND perturbation = 'original'
     GROUP BY dataset
""")

# A few of the task's own examples for a deploy's smoke test.
SMOKE_FIELDS = Query(
    """
    SELECT de.fields FROM dataset_examples de JOIN datasets d ON d.id = de.dataset
     WHERE d.task = :task AND de.perturbation = 'original'
     ORDER BY de.id LIMIT :limit
""",
    json=("fields",),
)


async def datasets_of_task(task_id: int) -> list[DatasetRow]:
    return cast(list[DatasetRow], await Dataset.select().where(Dataset.task == task_id).order_by(Dataset.id))


async def scoring_datasets(task_id: int) -> list[DatasetRow]:
    rows = await Dataset.select().where(Dataset.task == task_id, Dataset.access == DatasetAccess.SCORING).order_by(Dataset.id)
    return cast(list[DatasetRow], rows)


async def datasets_by_id(ids: Sequence[int]) -> list[DatasetRow]:
    return cast(list[DatasetRow], await Dataset.select().where(Dataset.id.is_in(list(ids) or [-1])))


async def original_example_counts(dataset_ids: Sequence[int]) -> dict[int, int]:
    """Examples as uploaded (not their perturbed copies), per dataset; a dataset without any is absent."""
    rows = await ORIGINAL_EXAMPLE_COUNTS.records(ids=list(dataset_ids))
    return {row["dataset"]: row["n"] for row in rows}


async def dataset_examples(dataset_id: int) -> list[DatasetExampleRow]:
    rows = (
        await DatasetExample.select()
        .where(DatasetExample.dataset == dataset_id)
        .order_by(DatasetExample.id)
        .output(load_json=True)
    )
    return cast(list[DatasetExampleRow], rows)


async def smoke_fields(task_id: int, limit: int) -> list[dict[str, Any]]:
    return [row["fields"] for row in await SMOKE_FIELDS.rows(task=task_id, limit=limit)]


async def insert_dataset(task_id: int, round_id: int | None, name: str, access: str, weight: float) -> DatasetRow:
    created = await Dataset.insert(Dataset(task=task_id, round=round_id, name=name, access=access, weight=weight)).returning(
        *Dataset.all_columns()
    )
    return cast(DatasetRow, created[0])


async def insert_dataset_examples(dataset_id: int, examples: list[dict[str, Any]]) -> None:
    """`examples`: {"uid", "fields", "gold", "tags"} and, for perturbed copies, "perturbation" and "original_uid"."""
    objects = [
        DatasetExample(
            dataset=dataset_id,
            uid=r["uid"],
            fields=r["fields"],
            gold=to_json(r["gold"]),
            tags=r["tags"],
            perturbation=r.get("perturbation", Perturbation.ORIGINAL),
            original_uid=r.get("original_uid"),
        )
        for r in examples
    ]
    for start in range(0, len(objects), INSERT_BATCH):
        await DatasetExample.insert(*objects[start : start + INSERT_BATCH])


# Scores -----------------------------------------------------------------------------------------

# One row per model × dataset: evaluating again overwrites it (the job is idempotent).
UPSERT_SCORE = Query("""
    INSERT INTO scores (model, dataset, perf, perf_by_tag, throughput, memory_gb, robustness, fairness, created_at)
    VALUES (:model, :dataset, :perf, :perf_by_tag::jsonb, :throughput, :memory_gb, :robustness, :fairness, now())
    ON CONFLICT (model, dataset) DO UPDATE SET
        perf = EXCLUDED.perf, perf_by_tag = EXCLUDED.perf_by_tag, throughput = EXCLUDED.throughput,
        memory_gb = EXCLUDED.memory_gb, robustness = EXCLUDED.robustness, fairness = EXCLUDED.fairness, created_at = now()
""")


async def upsert_score(model_id: int, dataset_id: int, values: dict[str, Any]) -> None:
    await UPSERT_SCORE.execute(
        model=model_id,
        dataset=dataset_id,
        perf=values["perf"],
        perf_by_tag=to_json(values["perf_by_tag"]),
        throughput=values["throughput"],
        memory_gb=values["memory_gb"],
        robustness=values["robustness"],
        fairness=values["fairness"],
    )


async def scores_of_models(model_ids: Sequence[int]) -> list[ScoreRow]:
    """For the leaderboard (perf_by_tag left undecoded: it does not show it)."""
    return cast(list[ScoreRow], await Score.select().where(Score.model.is_in(list(model_ids) or [-1])))


async def scores_by_model(model_ids: Sequence[int]) -> dict[int, list[ScoreRow]]:
    """Each model's scores, ordered by dataset."""
    rows = cast(
        list[ScoreRow],
        await Score.select().where(Score.model.is_in(list(model_ids) or [-1])).order_by(Score.dataset).output(load_json=True),
    )
    grouped: dict[int, list[ScoreRow]] = {}
    for row in rows:
        grouped.setdefault(row["model"], []).append(row)
    return grouped


# Saved leaderboard weightings -------------------------------------------------------------------


async def insert_leaderboard_config(
    task_id: int, owner_id: int, name: str, metric_weights: dict[str, float], dataset_weights: dict[str, float]
) -> LeaderboardConfigRow:
    rows = await LeaderboardConfig.insert(
        LeaderboardConfig(
            task=task_id,
            owner=owner_id,
            name=name,
            metric_weights=metric_weights,
            dataset_weights=dataset_weights,
        )
    ).returning(*LeaderboardConfig.all_columns())
    return cast(LeaderboardConfigRow, rows[0])


async def leaderboard_config(task_id: int, name: str) -> LeaderboardConfigRow | None:
    row = await (
        LeaderboardConfig.select()
        .where(LeaderboardConfig.task == task_id, LeaderboardConfig.name == name)
        .first()
        .output(load_json=True)
    )
    return cast(LeaderboardConfigRow | None, row)
