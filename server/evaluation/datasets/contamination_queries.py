"""The evaluation domain's query room for contamination reports (docs/design.md §4.9): what a check compares, and
the reports and duplicate flags it stores. Split from server/evaluation/queries.py by subject."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from server.core.jsonutil import to_json
from server.core.sql import Query
from server.evaluation.records import DatasetRow

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
