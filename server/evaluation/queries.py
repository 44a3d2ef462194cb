"""The evaluation domain's query room: every statement on models, datasets, their examples, scores and saved
leaderboard weightings, as named `Query` statements. Other domains read these rows through server/evaluation/reads.py."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, cast

from server.core.jsonutil import to_json
from server.core.sql import Query
from server.evaluation.records import (
    DatasetExampleRow,
    DatasetRow,
    LeaderboardConfigRow,
    ModelRow,
    ModelStatus,
    Perturbation,
    ResidentModelRow,
    ScoreRow,
)

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


_MODEL_JSON = ("card", "status_log")
MODEL = Query("SELECT * FROM models WHERE id = :id", json=_MODEL_JSON)
# The storage sweep (models/storage.py): which stored archives' models are failed or taken down, and since when.
ARCHIVE_OWNERS = Query("SELECT id, status, created_at, taken_down_at FROM models WHERE id = ANY(:ids::int[])")
MODELS_BY_ID = Query("SELECT * FROM models WHERE id = ANY(:ids::int[])", json=_MODEL_JSON)
MODELS_OF_OWNER = Query(
    """
    SELECT * FROM models WHERE owner = :owner AND (:task::int IS NULL OR task = :task::int)
     ORDER BY id DESC LIMIT :limit
""",
    json=_MODEL_JSON,
)
# A model an admin took down is on no leaderboard, not even its owner's view of one.
EVALUATED_MODELS = Query(
    "SELECT * FROM models WHERE task = :task AND status = 'evaluated' AND taken_down_at IS NULL", json=_MODEL_JSON
)
PUBLISHED_MODELS = Query("SELECT * FROM models WHERE task = :task AND published ORDER BY id DESC LIMIT 100", json=_MODEL_JSON)
MODEL_IDS_IN = Query("SELECT id FROM models WHERE task = :task AND status = ANY(:statuses::text[])")


async def model(model_id: int) -> ModelRow | None:
    return cast(ModelRow | None, await MODEL.row(id=model_id))


async def models_by_id(ids: Sequence[int]) -> list[ModelRow]:
    return cast(list[ModelRow], await MODELS_BY_ID.rows(ids=list(ids)))


async def models_of_owner(owner_id: int, task_id: int | None, limit: int) -> list[ModelRow]:
    """Newest first."""
    return cast(list[ModelRow], await MODELS_OF_OWNER.rows(owner=owner_id, task=task_id, limit=limit))


async def evaluated_models(task_id: int) -> list[ModelRow]:
    return cast(list[ModelRow], await EVALUATED_MODELS.rows(task=task_id))


async def published_models(task_id: int) -> list[ModelRow]:
    """The task's published submissions, newest first (the task creation form lists them as targets)."""
    return cast(list[ModelRow], await PUBLISHED_MODELS.rows(task=task_id))


async def model_ids_in(task_id: int, statuses: Iterable[ModelStatus]) -> list[int]:
    return [r["id"] for r in await MODEL_IDS_IN.records(task=task_id, statuses=[str(s) for s in statuses])]


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


# Timestamps are the statement's clock (as when the row was built in Python), not the transaction's start.
INSERT_MODEL = Query("""
    INSERT INTO models (task, owner, name, card, anonymous, status, status_log, published, retrained_from, created_at)
    VALUES (:task, :owner, :name, :card::jsonb, :anonymous, :status, :status_log::jsonb, :published, :retrained_from,
            clock_timestamp())
    RETURNING *
""")
SET_TRITON_NAME = Query("UPDATE models SET triton_name = :triton_name, triton_version = :triton_version WHERE id = :id")
# A model an administrator took down is never published again, whoever asks (a gate override included).
SET_PUBLISHED = Query("UPDATE models SET published = :published WHERE id = :id AND (NOT :published OR taken_down_at IS NULL)")


async def insert_model(
    task_id: int,
    owner_id: int,
    name: str,
    card: dict[str, Any],
    anonymous: bool,
    status: ModelStatus,
    status_log: list[dict[str, str]],
    published: bool = False,
    retrained_from: int | None = None,
) -> ModelRow:
    """The new row, its card and log as JSON text."""
    row = await INSERT_MODEL.row(
        task=task_id,
        owner=owner_id,
        name=name,
        card=to_json(card),
        anonymous=anonymous,
        status=str(status),
        status_log=to_json(status_log),
        published=published,
        retrained_from=retrained_from,
    )
    return cast(ModelRow, row)


async def set_triton_name(model_id: int, triton_name: str, triton_version: str) -> None:
    await SET_TRITON_NAME.execute(id=model_id, triton_name=triton_name, triton_version=triton_version)


async def set_published(model_id: int, published: bool) -> None:
    await SET_PUBLISHED.execute(id=model_id, published=published)


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


DATASETS_OF_TASK = Query("SELECT * FROM datasets WHERE task = :task ORDER BY id")
SCORING_DATASETS = Query("SELECT * FROM datasets WHERE task = :task AND access = 'scoring' ORDER BY id")
TASKS_WITH_SCORING_DATASETS = Query("SELECT DISTINCT task FROM datasets WHERE task = ANY(:tasks::int[]) AND access = 'scoring'")
DATASETS_BY_ID = Query("SELECT * FROM datasets WHERE id = ANY(:ids::int[])")
DATASET_EXAMPLES = Query(
    "SELECT * FROM dataset_examples WHERE dataset = :dataset ORDER BY id", json=("fields", "gold", "tags", "collected_duplicate")
)
INSERT_DATASET = Query("""
    INSERT INTO datasets (task, round, name, access, weight, created_at)
    VALUES (:task, :round, :name, :access, :weight, clock_timestamp())
    RETURNING *
""")
# A batch in the given order (ids follow it); the jsonb columns arrive as JSON text.
INSERT_DATASET_EXAMPLES = Query("""
    INSERT INTO dataset_examples (dataset, uid, fields, gold, tags, perturbation, original_uid)
    SELECT :dataset, r.uid, r.fields::jsonb, r.gold::jsonb, r.tags::jsonb, r.perturbation, r.original_uid
      FROM unnest(:uids::text[], :fields::text[], :golds::text[], :tags::text[], :perturbations::text[],
                  :original_uids::text[]) WITH ORDINALITY AS r(uid, fields, gold, tags, perturbation, original_uid, position)
     ORDER BY r.position
""")


async def datasets_of_task(task_id: int) -> list[DatasetRow]:
    return cast(list[DatasetRow], await DATASETS_OF_TASK.rows(task=task_id))


async def scoring_datasets(task_id: int) -> list[DatasetRow]:
    return cast(list[DatasetRow], await SCORING_DATASETS.rows(task=task_id))


async def tasks_with_scoring_datasets(task_ids: Sequence[int]) -> set[int]:
    """The tasks among `task_ids` that have at least one scoring dataset."""
    return {row["task"] for row in await TASKS_WITH_SCORING_DATASETS.records(tasks=list(task_ids))}


async def datasets_by_id(ids: Sequence[int]) -> list[DatasetRow]:
    return cast(list[DatasetRow], await DATASETS_BY_ID.rows(ids=list(ids)))


async def original_example_counts(dataset_ids: Sequence[int]) -> dict[int, int]:
    """Examples as uploaded (not their perturbed copies), per dataset; a dataset without any is absent."""
    rows = await ORIGINAL_EXAMPLE_COUNTS.records(ids=list(dataset_ids))
    return {row["dataset"]: row["n"] for row in rows}


async def dataset_examples(dataset_id: int) -> list[DatasetExampleRow]:
    return cast(list[DatasetExampleRow], await DATASET_EXAMPLES.rows(dataset=dataset_id))


async def smoke_fields(task_id: int, limit: int) -> list[dict[str, Any]]:
    return [row["fields"] for row in await SMOKE_FIELDS.rows(task=task_id, limit=limit)]


async def insert_dataset(task_id: int, round_id: int | None, name: str, access: str, weight: float) -> DatasetRow:
    row = await INSERT_DATASET.row(task=task_id, round=round_id, name=name, access=str(access), weight=float(weight))
    return cast(DatasetRow, row)


async def insert_dataset_examples(dataset_id: int, examples: list[dict[str, Any]]) -> None:
    """`examples`: {"uid", "fields", "gold", "tags"} and, for perturbed copies, "perturbation" and "original_uid".
    A missing gold is stored as JSON null (not SQL NULL), as it always was."""
    for start in range(0, len(examples), INSERT_BATCH):
        batch = examples[start : start + INSERT_BATCH]
        await INSERT_DATASET_EXAMPLES.execute(
            dataset=dataset_id,
            uids=[r["uid"] for r in batch],
            fields=[to_json(r["fields"]) for r in batch],
            golds=[to_json(r["gold"]) for r in batch],
            tags=[to_json(r["tags"]) for r in batch],
            perturbations=[str(r.get("perturbation", Perturbation.ORIGINAL)) for r in batch],
            original_uids=[r.get("original_uid") for r in batch],
        )


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


# For the leaderboard (perf_by_tag left undecoded: it does not show it).
SCORES_OF_MODELS = Query("SELECT * FROM scores WHERE model = ANY(:models::int[])")
SCORES_BY_DATASET = Query("SELECT * FROM scores WHERE model = ANY(:models::int[]) ORDER BY dataset", json=("perf_by_tag",))


async def scores_of_models(model_ids: Sequence[int]) -> list[ScoreRow]:
    return cast(list[ScoreRow], await SCORES_OF_MODELS.rows(models=list(model_ids)))


async def scores_by_model(model_ids: Sequence[int]) -> dict[int, list[ScoreRow]]:
    """Each model's scores, ordered by dataset."""
    rows = cast(list[ScoreRow], await SCORES_BY_DATASET.rows(models=list(model_ids)))
    grouped: dict[int, list[ScoreRow]] = {}
    for row in rows:
        grouped.setdefault(row["model"], []).append(row)
    return grouped


# Saved leaderboard weightings -------------------------------------------------------------------

# The new row's weights come back as JSON text; a saved one's decoded.
INSERT_LEADERBOARD_CONFIG = Query("""
    INSERT INTO leaderboard_configs (task, owner, name, metric_weights, dataset_weights, created_at)
    VALUES (:task, :owner, :name, :metric_weights::jsonb, :dataset_weights::jsonb, clock_timestamp())
    RETURNING *
""")
LEADERBOARD_CONFIG = Query(
    "SELECT * FROM leaderboard_configs WHERE task = :task AND name = :name LIMIT 1", json=("metric_weights", "dataset_weights")
)


async def insert_leaderboard_config(
    task_id: int, owner_id: int, name: str, metric_weights: dict[str, float], dataset_weights: dict[str, float]
) -> LeaderboardConfigRow:
    row = await INSERT_LEADERBOARD_CONFIG.row(
        task=task_id,
        owner=owner_id,
        name=name,
        metric_weights=to_json(metric_weights),
        dataset_weights=to_json(dataset_weights),
    )
    return cast(LeaderboardConfigRow, row)


async def leaderboard_config(task_id: int, name: str) -> LeaderboardConfigRow | None:
    return cast(LeaderboardConfigRow | None, await LEADERBOARD_CONFIG.row(task=task_id, name=name))


# Take-downs (server/evaluation/models/takedown.py), in the admin's transaction ---------------------------------------------

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
