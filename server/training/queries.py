"""The training domain's query room: every statement on training runs, and the validated examples a run
trains on, as named `Query` statements. Other domains read these rows through server/training/reads.py."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, cast

from server.core.jsonutil import to_json
from server.core.sql import Query
from server.training.records import ACTIVE_STATUSES, LogEntry, TrainingRunRow, TrainingStatus, ValidatedExample

_RUN_JSON = ("from_rounds", "status_log", "metrics", "trained_on", "gate")
RUN_BY_ID = Query("SELECT * FROM training_runs WHERE id = :id", json=_RUN_JSON)
RUNS_BY_ID = Query("SELECT * FROM training_runs WHERE id = ANY(:ids::int[])", json=_RUN_JSON)
RUNS_OF_TASK = Query("SELECT * FROM training_runs WHERE task = :task ORDER BY id DESC LIMIT :limit", json=_RUN_JSON)
# The run that built this version and judged it (published or rejected), newest first. Its jsonb columns come back
# as JSON text (its one caller reads none of them).
JUDGED_RUN = Query("""
    SELECT * FROM training_runs WHERE task = :task AND model_version = :model_version AND status = ANY(:judged::text[])
     ORDER BY (status = 'published') DESC, id DESC LIMIT 1
""")


async def run_by_id(run_id: int) -> TrainingRunRow | None:
    return cast(TrainingRunRow | None, await RUN_BY_ID.row(id=run_id))


async def runs_by_id(ids: Sequence[int]) -> list[TrainingRunRow]:
    return cast(list[TrainingRunRow], await RUNS_BY_ID.rows(ids=list(ids)))


async def runs_of_task(task_id: int, limit: int) -> list[TrainingRunRow]:
    """Newest first."""
    return cast(list[TrainingRunRow], await RUNS_OF_TASK.rows(task=task_id, limit=limit))


async def judged_run(task_id: int, model_version: str) -> TrainingRunRow | None:
    """The published run of this version, else its rejected one."""
    judged = [str(TrainingStatus.PUBLISHED), str(TrainingStatus.REJECTED)]
    return cast(TrainingRunRow | None, await JUDGED_RUN.row(task=task_id, model_version=model_version, judged=judged))


# Starting a run ---------------------------------------------------------------------------------

# A run still "active" hours later lost its job: it is failed, with a log entry that says so.
ABANDON_STALE = Query("""
    UPDATE training_runs SET status = 'failed', status_log = status_log || :entries::jsonb
     WHERE task = :task AND status = ANY(:active::text[]) AND created_at < now() - make_interval(hours => :hours)
""")

# Inside the starting transaction: the task's active runs, locked.
LOCK_ACTIVE = Query("SELECT id FROM training_runs WHERE task = :task AND status = ANY(:active::text[]) FOR UPDATE")

INSERT_RUN = Query("""
    INSERT INTO training_runs (task, requested_by, from_rounds, base_model, profile, status, status_log, model_name,
                               scoring_tolerance, min_held_out, include_agreed, source_model)
    VALUES (:task, :requested_by, :from_rounds::jsonb, :base_model, :profile, 'queued', :entries::jsonb, :model_name,
            :scoring_tolerance, :min_held_out, :include_agreed, :source_model)
    RETURNING id
""")


async def abandon_stale_runs(task_id: int, older_than_hours: int, entry: LogEntry) -> None:
    await ABANDON_STALE.execute(entries=to_json([entry]), task=task_id, active=_active(), hours=older_than_hours)


async def lock_active_runs(task_id: int) -> list[int]:
    return [row["id"] for row in await LOCK_ACTIVE.records(task=task_id, active=_active())]


async def insert_run(
    task_id: int,
    requested_by: int,
    from_rounds: list[int],
    base_model: str,
    profile: str,
    entry: LogEntry,
    model_name: str,
    scoring_tolerance: float,
    min_held_out: int,
    include_agreed: bool,
    source_model: int | None = None,
) -> int:
    return await INSERT_RUN.value(
        task=task_id,
        requested_by=requested_by,
        from_rounds=to_json(from_rounds),
        base_model=base_model,
        profile=profile,
        entries=to_json([entry]),
        model_name=model_name,
        scoring_tolerance=scoring_tolerance,
        min_held_out=min_held_out,
        include_agreed=include_agreed,
        source_model=source_model,
    )


def _active() -> list[str]:
    return [str(status) for status in ACTIVE_STATUSES]


# The job's progress ---------------------------------------------------------------------------

# Columns the job sets as it goes (with the status and a log entry appended in the same statement).
_RECORDED = (
    "progress",
    "n_validated",
    "model_version",
    "new_model",
    "metrics",
    "trained_on",
    "gate",
    "wall_seconds",
    "cpu_seconds",
)
_JSONB = ("metrics", "trained_on", "gate")
# A guarded write happens only while the run is still the job's: active and not asked to stop. The job's first write
# (queued → training) and its last (published / rejected) are guarded, so a cancellation is never overwritten.
_GUARD = " AND status = ANY(:active::text[]) AND NOT cancel_requested RETURNING id"


@functools.cache
def _record_statement(status: bool, entry: bool, columns: tuple[str, ...], guarded: bool) -> Query:
    sets = []
    if status:
        sets.append("status = :status")
    if entry:
        sets.append("status_log = status_log || :entries::jsonb")
    for column in columns:
        if column not in _RECORDED:
            raise ValueError(f"not a training run column the job sets: {column}")
        sets.append(f"{column} = :{column}" + ("::jsonb" if column in _JSONB else ""))
    return Query(f"UPDATE training_runs SET {', '.join(sets)} WHERE id = :id" + (_GUARD if guarded else ""))


async def record(
    run_id: int, status: TrainingStatus | None, entry: LogEntry | None, values: dict[str, Any], guarded: bool = False
) -> bool:
    """One statement: the status, a log entry appended (so concurrent updates never lose one), the columns. A guarded
    write says whether it happened (False: the run was cancelled or had ended)."""
    statement = _record_statement(status is not None, entry is not None, tuple(values), guarded)
    arguments = {column: to_json(value) if column in _JSONB else value for column, value in values.items()}
    if status is not None:
        arguments["status"] = str(status)
    if entry is not None:
        arguments["entries"] = to_json([entry])
    if guarded:
        return await statement.value(id=run_id, active=_active(), **arguments) is not None
    await statement.execute(id=run_id, **arguments)
    return True


CANCEL_REQUESTED = Query("SELECT cancel_requested FROM training_runs WHERE id = :id")


async def cancel_requested(run_id: int) -> bool:
    return bool(await CANCEL_REQUESTED.value(id=run_id))


# Cancelling and overriding ---------------------------------------------------------------------

# A queued run is cancelled at once; a running one is asked to stop (its job ends it as cancelled).
REQUEST_CANCEL = Query("""
    UPDATE training_runs
       SET cancel_requested = true,
           status = CASE WHEN status = 'queued' THEN 'cancelled' ELSE status END,
           status_log = status_log || CASE WHEN status = 'queued' THEN :cancelled::jsonb ELSE :requested::jsonb END
     WHERE id = :id AND status = ANY(:active::text[]) AND NOT cancel_requested
    RETURNING status
""")

# A rejected version offered anyway by an owner: published, with who and why.
OVERRIDE_GATE = Query("""
    UPDATE training_runs
       SET status = 'published', overridden_by = :actor, override_reason = :reason, overridden_at = now(),
           status_log = status_log || :entries::jsonb
     WHERE id = :id AND status = 'rejected'
    RETURNING id
""")


async def request_cancel(run_id: int, cancelled: LogEntry, requested: LogEntry) -> str | None:
    """The run's status after the request (cancelled, or still running with the request noted); None when it was not
    active or already asked to stop."""
    return await REQUEST_CANCEL.value(id=run_id, cancelled=to_json([cancelled]), requested=to_json([requested]), active=_active())


async def override_gate(run_id: int, actor: int, reason: str, entry: LogEntry) -> bool:
    return await OVERRIDE_GATE.value(id=run_id, actor=actor, reason=reason, entries=to_json([entry])) is not None


# What a run trains on -------------------------------------------------------------------------

# Validated examples, and with `agreed` the closed ones: not fooling (the target agreed with the writer's label) and
# not sent to validators because the task does not validate non-fooling examples.
VALIDATED_EXAMPLES = Query(
    """
    SELECT e.id, e.input::text AS input, c.fields::text AS context, e.status = 'closed' AS agreed
      FROM examples e JOIN contexts c ON c.id = e.context JOIN rounds r ON r.id = e.round
     WHERE r.task = :task AND r.number = ANY(:numbers::int[]) AND NOT e.retracted
       AND (e.status = 'validated' OR (:agreed AND e.status = 'closed' AND e.fooled IS FALSE))
     ORDER BY e.id
""",
    json=("input", "context"),
)


async def validated_examples(task_id: int, round_numbers: list[int], agreed: bool) -> list[ValidatedExample]:
    return cast(list[ValidatedExample], await VALIDATED_EXAMPLES.rows(task=task_id, numbers=round_numbers, agreed=agreed))
