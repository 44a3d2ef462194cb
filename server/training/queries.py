"""The training domain's query room: every statement on training runs, and the validated examples a run
trains on (hand-written SQL as `Query` constants, the rest through Piccolo's query builder)."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, cast

from server.core.jsonutil import to_json
from server.core.sql import Query
from server.training.records import ACTIVE_STATUSES, LogEntry, TrainingRunRow, TrainingStatus, ValidatedExample
from server.training.tables import TrainingRun


async def run_by_id(run_id: int) -> TrainingRunRow | None:
    return cast(TrainingRunRow | None, await TrainingRun.select().where(TrainingRun.id == run_id).first().output(load_json=True))


async def runs_by_id(ids: Sequence[int]) -> list[TrainingRunRow]:
    query = TrainingRun.select().where(TrainingRun.id.is_in(list(ids) or [-1]))
    return cast(list[TrainingRunRow], await query.output(load_json=True))


async def runs_of_task(task_id: int, limit: int) -> list[TrainingRunRow]:
    """Newest first."""
    query = TrainingRun.select().where(TrainingRun.task == task_id).order_by(TrainingRun.id, ascending=False)
    return cast(list[TrainingRunRow], await query.limit(limit).output(load_json=True))


async def published_run(task_id: int, model_version: str) -> TrainingRunRow | None:
    return cast(
        TrainingRunRow | None,
        await TrainingRun.select()
        .where(
            TrainingRun.task == task_id,
            TrainingRun.model_version == model_version,
            TrainingRun.status == TrainingStatus.PUBLISHED,
        )
        .first(),
    )


# Starting a run ---------------------------------------------------------------------------------

# A run still "active" hours later lost its job: it is failed, with a log entry that says so.
ABANDON_STALE = Query("""
    UPDATE training_runs SET status = 'failed', status_log = status_log || :entries::jsonb
     WHERE task = :task AND status = ANY(:active::text[]) AND created_at < now() - make_interval(hours => :hours)
""")

# Inside the starting transaction: the task's active runs, locked.
LOCK_ACTIVE = Query("SELECT id FROM training_runs WHERE task = :task AND status = ANY(:active::text[]) FOR UPDATE")

INSERT_RUN = Query("""
    INSERT INTO training_runs (task, requested_by, from_rounds, base_model, profile, status, status_log, model_name)
    VALUES (:task, :requested_by, :from_rounds::jsonb, :base_model, :profile, 'queued', :entries::jsonb, :model_name)
    RETURNING id
""")


async def abandon_stale_runs(task_id: int, older_than_hours: int, entry: LogEntry) -> None:
    await ABANDON_STALE.execute(entries=to_json([entry]), task=task_id, active=_active(), hours=older_than_hours)


async def lock_active_runs(task_id: int) -> list[int]:
    return [row["id"] for row in await LOCK_ACTIVE.records(task=task_id, active=_active())]


async def insert_run(
    task_id: int, requested_by: int, from_rounds: list[int], base_model: str, profile: str, entry: LogEntry, model_name: str
) -> int:
    return await INSERT_RUN.value(
        task=task_id,
        requested_by=requested_by,
        from_rounds=to_json(from_rounds),
        base_model=base_model,
        profile=profile,
        entries=to_json([entry]),
        model_name=model_name,
    )


def _active() -> list[str]:
    return [str(status) for status in ACTIVE_STATUSES]


# The job's progress ---------------------------------------------------------------------------

# Columns the job sets as it goes (with the status and a log entry appended in the same statement).
_RECORDED = ("progress", "n_validated", "model_version", "metrics", "trained_on")
_JSONB = ("metrics", "trained_on")


@functools.cache
def _record_statement(status: bool, entry: bool, columns: tuple[str, ...]) -> Query:
    sets = []
    if status:
        sets.append("status = :status")
    if entry:
        sets.append("status_log = status_log || :entries::jsonb")
    for column in columns:
        if column not in _RECORDED:
            raise ValueError(f"not a training run column the job sets: {column}")
        sets.append(f"{column} = :{column}" + ("::jsonb" if column in _JSONB else ""))
    return Query(f"UPDATE training_runs SET {', '.join(sets)} WHERE id = :id")


async def record(run_id: int, status: TrainingStatus | None, entry: LogEntry | None, values: dict[str, Any]) -> None:
    """One statement: the status, a log entry appended (so concurrent updates never lose one), the columns."""
    statement = _record_statement(status is not None, entry is not None, tuple(values))
    arguments = {column: to_json(value) if column in _JSONB else value for column, value in values.items()}
    if status is not None:
        arguments["status"] = str(status)
    if entry is not None:
        arguments["entries"] = to_json([entry])
    await statement.execute(id=run_id, **arguments)


# What a run trains on -------------------------------------------------------------------------

VALIDATED_EXAMPLES = Query(
    """
    SELECT e.id, e.input::text AS input, c.fields::text AS context
      FROM examples e JOIN contexts c ON c.id = e.context JOIN rounds r ON r.id = e.round
     WHERE r.task = :task AND r.number = ANY(:numbers::int[]) AND e.status = 'validated' AND NOT e.retracted
     ORDER BY e.id
""",
    json=("input", "context"),
)


async def validated_examples(task_id: int, round_numbers: list[int]) -> list[ValidatedExample]:
    return cast(list[ValidatedExample], await VALIDATED_EXAMPLES.rows(task=task_id, numbers=round_numbers))
