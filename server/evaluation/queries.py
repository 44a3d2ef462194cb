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
    ResidentModelRow,
    ScoreRow,
)
from server.evaluation.tables import Dataset, DatasetExample, LeaderboardConfig, Model, Score

INSERT_BATCH = 1000  # dataset examples per INSERT statement

# Models -----------------------------------------------------------------------------------------

# Appends to the log and sets the status in one statement, so concurrent jobs never lose an entry.
RECORD_STATUS = Query(
    """
    UPDATE models SET status = :status, status_log = status_log || :entries::jsonb
     WHERE id = :id AND (:triton_name = '' OR triton_name = :triton_name) RETURNING *
""",
    json=("card", "status_log"),
)


RESIDENT_MODELS = Query("""
    SELECT m.id, m.triton_name, m.status,
           coalesce((m.status_log -> -1 ->> 'at')::timestamptz, m.created_at) AS changed_at,
           EXISTS (SELECT 1 FROM rounds r CROSS JOIN LATERAL jsonb_array_elements(r.target_models) t
                    WHERE r.end_at IS NULL AND t->>'name' = m.triton_name) AS in_the_loop
      FROM models m
     WHERE m.triton_name = ANY(:names)
""")
OPEN_ROUND_SUBMISSIONS = Query("""
    SELECT DISTINCT (t->>'model_id')::int AS model_id
      FROM rounds r CROSS JOIN LATERAL jsonb_array_elements(r.target_models) t
     WHERE r.end_at IS NULL AND t ? 'model_id'
""")


async def resident_models(triton_names: Sequence[str]) -> list[ResidentModelRow]:
    return cast(list[ResidentModelRow], await RESIDENT_MODELS.rows(names=list(triton_names)))


async def open_round_submissions() -> list[int]:
    """The submissions that judge an open round (of any task)."""
    return [row["model_id"] for row in await OPEN_ROUND_SUBMISSIONS.rows()]


async def record_status(
    model_id: int, status: ModelStatus, entries: list[dict[str, str]], triton_name: str = ""
) -> ModelRow | None:
    """None when no such model, or (``triton_name`` given) the row is another model's now."""
    row = await RECORD_STATUS.row(status=str(status), entries=to_json(entries), id=model_id, triton_name=triton_name)
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
    # A model an admin took down is on no leaderboard, not even its owner's view of one.
    query = Model.select().where(Model.task == task_id, Model.status == ModelStatus.EVALUATED, Model.taken_down_at.is_null())
    return cast(list[ModelRow], await query.output(load_json=True))


async def published_models(task_id: int) -> list[ModelRow]:
    """The task's published submissions, newest first (the task creation form lists them as targets)."""
    query = Model.select().where(Model.task == task_id, Model.published.eq(True))
    return cast(list[ModelRow], await query.order_by(Model.id, ascending=False).limit(100).output(load_json=True))


async def model_ids_in(task_id: int, statuses: Iterable[ModelStatus]) -> list[int]:
    rows = await Model.select(Model.id).where(Model.task == task_id, Model.status.is_in(list(statuses)))
    return [r["id"] for r in rows]


# Not ranked models (evaluated while their task had no scoring dataset) whose task has one now go back to
# `deployed`, in one statement, so that two callers never queue the same evaluation twice.
REQUEUE_NOT_RANKED = Query(
    """
    UPDATE models m SET status = 'deployed', status_log = m.status_log || :entries::jsonb
     WHERE m.status = 'not_ranked' AND (:task::int IS NULL OR m.task = :task::int)
       AND EXISTS (SELECT 1 FROM datasets d WHERE d.task = m.task AND d.access = 'scoring')
    RETURNING *
""",
    json=("card", "status_log"),
)


async def requeue_not_ranked(task_id: int | None, entries: list[dict[str, str]]) -> list[ModelRow]:
    """Of one task, or (None) of every task; the models moved back to `deployed`."""
    return cast(list[ModelRow], await REQUEUE_NOT_RANKED.rows(task=task_id, entries=to_json(entries)))


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


async def tasks_with_scoring_datasets(task_ids: Sequence[int]) -> set[int]:
    """The tasks among `task_ids` that have at least one scoring dataset."""
    rows = await (
        Dataset.select(Dataset.task)
        .where(Dataset.task.is_in(list(task_ids) or [-1]), Dataset.access == DatasetAccess.SCORING)
        .distinct()
    )
    return {row["task"] for row in rows}


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


# Contamination reports (docs/design.md §4.9) ------------------------------------------------------

# What a dataset's rows are compared with: the task's collected examples (not retracted; the context's
# fields under the annotator's input), other datasets' rows, and the built-in targets its rounds named.
ORIGINAL_ROWS = Query(
    "SELECT id, uid, fields FROM dataset_examples WHERE dataset = :dataset AND perturbation = 'original' ORDER BY id",
    json=("fields",),
)
TASK_DATASET_ROWS = Query(
    """
    SELECT d.id AS dataset, d.name, de.uid, de.fields
      FROM dataset_examples de JOIN datasets d ON d.id = de.dataset
     WHERE d.task = :task AND de.perturbation = 'original'
     ORDER BY d.id, de.id
""",
    json=("fields",),
)
COLLECTED_EXAMPLES = Query(
    """
    SELECT e.id, r.number AS round_number, e.status, e.input, c.fields AS context
      FROM examples e JOIN rounds r ON r.id = e.round JOIN contexts c ON c.id = e.context
     WHERE r.task = :task AND NOT e.retracted
     ORDER BY e.id
""",
    json=("input", "context"),
)
TARGETS_OF_TASK = Query("""
    SELECT DISTINCT t->>'name' AS name, coalesce(t->>'version', '') AS version
      FROM rounds r CROSS JOIN LATERAL jsonb_array_elements(r.target_models) t
     WHERE r.task = :task AND t->>'name' IS NOT NULL
""")
# One report per dataset and per round: a job that runs again replaces it. Stored only while the dataset (round)
# is still the one the job read: same id and creation time (ids restart when tests truncate the tables).
UPSERT_DATASET_REPORT = Query("""
    INSERT INTO contamination_reports (task, dataset, report, computed_at)
    SELECT d.task, d.id, :report::jsonb, now() FROM datasets d WHERE d.id = :dataset AND d.created_at = :created_at
    ON CONFLICT (dataset) WHERE dataset IS NOT NULL DO UPDATE SET report = EXCLUDED.report, computed_at = now()
    RETURNING id
""")
UPSERT_ROUND_REPORT = Query("""
    INSERT INTO contamination_reports (task, round, report, computed_at)
    SELECT r.task, r.id, :report::jsonb, now() FROM rounds r WHERE r.id = :round AND r.start_at = :start_at
    ON CONFLICT (round) WHERE round IS NOT NULL DO UPDATE SET report = EXCLUDED.report, computed_at = now()
    RETURNING id
""")
CLEAR_COLLECTED_DUPLICATES = Query(
    "UPDATE dataset_examples SET collected_duplicate = NULL WHERE dataset = :dataset AND collected_duplicate IS NOT NULL"
)
SET_COLLECTED_DUPLICATES = Query("""
    UPDATE dataset_examples de SET collected_duplicate = f.flag::jsonb
      FROM unnest(:ids::int[], :flags::text[]) AS f(id, flag)
     WHERE de.id = f.id AND de.dataset = :dataset
""")
REPORTS_OF_DATASETS = Query(
    "SELECT dataset, report, computed_at FROM contamination_reports WHERE dataset = ANY(:ids::int[])", json=("report",)
)
REPORTS_OF_ROUNDS = Query(
    "SELECT round, report, computed_at FROM contamination_reports WHERE round = ANY(:ids::int[])", json=("report",)
)


UNREPORTED_DATASETS = Query("""
    SELECT d.id FROM datasets d
     WHERE NOT EXISTS (SELECT 1 FROM contamination_reports r WHERE r.dataset = d.id)
       AND d.created_at < now() - make_interval(secs => :min_age_s)
     ORDER BY d.id LIMIT :limit
""")


async def unreported_datasets(min_age_s: float, limit: int) -> list[int]:
    """Datasets older than ``min_age_s`` with no contamination report (e.g. those `dynabench migrate` seeded)."""
    return [row["id"] for row in await UNREPORTED_DATASETS.rows(min_age_s=float(min_age_s), limit=limit)]


async def original_rows(dataset_id: int) -> list[dict[str, Any]]:
    """{"id", "uid", "fields"} of the dataset's rows as uploaded."""
    return await ORIGINAL_ROWS.rows(dataset=dataset_id)


async def task_dataset_rows(task_id: int) -> list[dict[str, Any]]:
    """{"dataset", "name", "uid", "fields"} of every dataset's rows as uploaded, by dataset."""
    return await TASK_DATASET_ROWS.rows(task=task_id)


async def collected_examples(task_id: int) -> list[dict[str, Any]]:
    """{"id", "round_number", "status", "input", "context"} of the task's examples that are not retracted."""
    return await COLLECTED_EXAMPLES.rows(task=task_id)


async def targets_of_task(task_id: int) -> list[tuple[str, str]]:
    """Every (model name, version) a round of the task named as a target."""
    return [(row["name"], row["version"]) for row in await TARGETS_OF_TASK.rows(task=task_id)]


async def save_dataset_report(dataset: DatasetRow, report: dict[str, Any], flags: dict[int, dict[str, Any]]) -> bool:
    """The report, and the collected-duplicate flags of the dataset's rows (by dataset_examples id), replaced
    together; call inside a transaction. False (nothing stored) when the dataset is gone."""
    stored = await UPSERT_DATASET_REPORT.value(dataset=dataset["id"], created_at=dataset["created_at"], report=to_json(report))
    if stored is None:
        return False
    await CLEAR_COLLECTED_DUPLICATES.execute(dataset=dataset["id"])
    if flags:
        ids = list(flags)
        await SET_COLLECTED_DUPLICATES.execute(ids=ids, flags=[to_json(flags[i]) for i in ids], dataset=dataset["id"])
    return True


async def save_round_report(round_id: int, start_at: Any, report: dict[str, Any]) -> bool:
    """False (nothing stored) when the round is gone."""
    return await UPSERT_ROUND_REPORT.value(round=round_id, start_at=start_at, report=to_json(report)) is not None


async def dataset_reports(dataset_ids: Sequence[int]) -> dict[int, dict[str, Any]]:
    """{dataset id: {"report", "computed_at"}} of the datasets that have one."""
    return {row["dataset"]: row for row in await REPORTS_OF_DATASETS.rows(ids=list(dataset_ids))}


async def round_reports(round_ids: Sequence[int]) -> dict[int, dict[str, Any]]:
    return {row["round"]: row for row in await REPORTS_OF_ROUNDS.rows(ids=list(round_ids))}


# Take-downs (server/evaluation/takedown.py), in the admin's transaction ---------------------------------------------

LOCK_MODEL = Query("SELECT * FROM models WHERE id = :id FOR UPDATE", json=("card", "status_log"))

# The open rounds this submission judges, locked: their targets lose it.
LOCK_ROUNDS_JUDGED_BY = Query(
    """
    SELECT r.id, r.number, r.target_models, t.code AS task_code
      FROM rounds r JOIN tasks t ON t.id = r.task
     WHERE r.end_at IS NULL AND r.target_models @> jsonb_build_array(jsonb_build_object('model_id', :model::int))
     ORDER BY r.id FOR UPDATE OF r
""",
    json=("target_models",),
)

SET_ROUND_TARGETS = Query("UPDATE rounds SET target_models = :targets::jsonb WHERE id = :id")

TAKE_DOWN = Query("""
    UPDATE models SET published = false, taken_down_at = now(), taken_down_reason = :reason WHERE id = :id
    RETURNING taken_down_at
""")


async def lock_model(model_id: int) -> dict[str, Any] | None:
    return await LOCK_MODEL.row(id=model_id)


async def lock_rounds_judged_by(model_id: int) -> list[dict[str, Any]]:
    return await LOCK_ROUNDS_JUDGED_BY.rows(model=model_id)


async def set_round_targets(round_id: int, targets: list[dict[str, Any]]) -> None:
    await SET_ROUND_TARGETS.execute(id=round_id, targets=to_json(targets))


async def take_down(model_id: int, reason: str) -> None:
    await TAKE_DOWN.execute(id=model_id, reason=reason)
