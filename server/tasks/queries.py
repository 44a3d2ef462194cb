"""The tasks domain's query room: every statement on tasks, their owners, rounds and contexts
(hand-written SQL as `Query` constants, the rest through Piccolo's query builder)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, cast

from server.core.sql import Query
from server.tasks.records import (
    ConfigVersionRow,
    ContextRow,
    ContextStrategy,
    NewContext,
    RoundRow,
    TargetModelRef,
    TaskRow,
    TaskTotals,
)
from server.tasks.tables import Context, Round, Task, TaskOwner

INSERT_BATCH = 1000  # contexts per INSERT statement

# Tasks ------------------------------------------------------------------------------------------


async def task_by_code(code: str, *, decode_json: bool = False) -> TaskRow | None:
    query = Task.select().where(Task.code == code).first()
    return cast(TaskRow | None, await (query.output(load_json=True) if decode_json else query))


async def task_by_id(task_id: int) -> TaskRow | None:
    return cast(TaskRow | None, await Task.select().where(Task.id == task_id).first())


async def tasks_by_id(ids: Sequence[int]) -> list[TaskRow]:
    return cast(list[TaskRow], await Task.select().where(Task.id.is_in(list(ids))).output(load_json=True))


# The tasks a viewer's list shows: the open ones (server/tasks/records.OPEN_STATUSES, minus HIDDEN), plus, for
# its owners, their own tasks in any state; `:everything` (admins) shows every task. The rule is
# permissions.task_list_scope; this statement only applies it.
LISTED_TASKS = Query(
    """
    SELECT * FROM tasks
     WHERE active AND id > :after
       AND (:everything OR status = ANY(:statuses::text[]) OR id = ANY(:owned::int[]))
     ORDER BY id LIMIT :limit
""",
    json=("config",),
)


async def listed_tasks_page(
    after_id: int | None, limit: int, *, everything: bool, statuses: Sequence[str], owned: Sequence[int]
) -> list[TaskRow]:
    """Active tasks after the cursor that the viewer's list shows, oldest first (a keyset page)."""
    rows = await LISTED_TASKS.rows(
        after=after_id or 0, limit=limit, everything=everything, statuses=list(statuses), owned=list(owned)
    )
    return cast(list[TaskRow], rows)


async def insert_task(
    code: str, name: str, description: str, config: dict[str, Any], status: str, instructions: str, created_by: int | None
) -> TaskRow:
    """The task and its config's version 1 (in the caller's transaction)."""
    rows = await Task.insert(
        Task(code=code, name=name, description=description, config=config, status=status, instructions=instructions)
    ).returning(*Task.all_columns())
    task = cast(TaskRow, rows[0])
    await insert_config_version(task["id"], 1, config, created_by)
    return task


async def insert_owner(task_id: int, user_id: int) -> None:
    await TaskOwner.insert(TaskOwner(task=task_id, user=user_id))


# Lifecycle (server/tasks/lifecycle.py) ----------------------------------------------------------

# One change to a task at a time: two owners opening a round at once get consecutive numbers, two owners removing
# each other cannot leave the task without one, two edits of its config get consecutive versions.
LOCK_TASK = Query("SELECT * FROM tasks WHERE id = :id FOR UPDATE")
INSERT_CONFIG_VERSION = Query("""
    INSERT INTO task_config_versions (task, version, config, created_by) VALUES (:task, :version, :config::jsonb, :by)
""")
CONFIG_VERSION_TEXT = Query("SELECT config::text FROM task_config_versions WHERE task = :task AND version = :version")
CONFIG_VERSIONS = Query("SELECT * FROM task_config_versions WHERE task = :task ORDER BY version DESC", json=("config",))
# Owners in the order they were added; FOR UPDATE on the task serializes changes to one task's owners.
OWNERS = Query("""
    SELECT u.id, u.username FROM task_owners o JOIN users u ON u.id = o."user" WHERE o.task = :task ORDER BY o.id
""")
ADD_OWNER = Query("""
    INSERT INTO task_owners (task, "user") VALUES (:task, :user) ON CONFLICT (task, "user") DO NOTHING RETURNING id
""")
REMOVE_OWNER = Query('DELETE FROM task_owners WHERE task = :task AND "user" = :user RETURNING id')
OPEN_ROUND = Query(
    "SELECT * FROM rounds WHERE task = :task AND end_at IS NULL ORDER BY number DESC LIMIT 1", json=("target_models",)
)
# What visibility needs of a round's task (permissions.can_view_task), in one small read (nextContext's hot path).
TASK_OF_ROUND = Query("SELECT t.id, t.status FROM rounds r JOIN tasks t ON t.id = r.task WHERE r.id = :round")
CLOSE_OPEN_ROUNDS = Query("UPDATE rounds SET end_at = now() WHERE task = :task AND end_at IS NULL RETURNING id")


async def lock_task(task_id: int) -> TaskRow | None:
    """The task, its row locked until the transaction ends (one change to a task at a time)."""
    return cast(TaskRow | None, await LOCK_TASK.row(id=task_id))


async def update_task(task_id: int, values: dict[str, Any]) -> TaskRow:
    """Set these columns (names of tasks' columns: name, description, instructions, config, config_version, status,
    review_note)."""
    changes = {getattr(Task, name): value for name, value in values.items()}
    rows = await Task.update(changes).where(Task.id == task_id).returning(*Task.all_columns())
    return cast(TaskRow, rows[0])


async def insert_config_version(task_id: int, version: int, config: dict[str, Any], created_by: int | None) -> None:
    from server.core.jsonutil import to_json

    await INSERT_CONFIG_VERSION.execute(task=task_id, version=version, config=to_json(config), by=created_by)


async def config_version_text(task_id: int, version: int) -> str | None:
    """The version's config document as JSON text (None when the task has no such version)."""
    return await CONFIG_VERSION_TEXT.value(task=task_id, version=version)


async def config_versions(task_id: int) -> list[ConfigVersionRow]:
    """Newest first."""
    return cast(list[ConfigVersionRow], await CONFIG_VERSIONS.rows(task=task_id))


async def owners(task_id: int) -> list[dict[str, Any]]:
    """[{"id", "username"}] of the task's owners."""
    return await OWNERS.rows(task=task_id)


async def add_owner(task_id: int, user_id: int) -> bool:
    """False when the user already owns the task."""
    return await ADD_OWNER.row(task=task_id, user=user_id) is not None


async def remove_owner(task_id: int, user_id: int) -> bool:
    """False when the user did not own the task."""
    return await REMOVE_OWNER.row(task=task_id, user=user_id) is not None


async def open_round(task_id: int) -> RoundRow | None:
    return cast(RoundRow | None, await OPEN_ROUND.row(task=task_id))


async def task_of_round(round_id: int) -> dict[str, Any] | None:
    """{"id", "status"} of the round's task; None when there is no such round."""
    return await TASK_OF_ROUND.row(round=round_id)


async def close_open_rounds(task_id: int) -> list[int]:
    """The ids of the rounds closed now."""
    return [row["id"] for row in await CLOSE_OPEN_ROUNDS.rows(task=task_id)]


# Totals over all of a task's rounds (TaskNode.mer / vmer).
TASK_TOTALS = Query("""
    SELECT coalesce(sum(total_collected), 0) AS collected, coalesce(sum(total_fooled), 0) AS fooled,
           coalesce(sum(total_validated_fooled), 0) AS validated_fooled
      FROM rounds WHERE task = :task
""")


async def task_totals(task_id: int) -> TaskTotals:
    return cast(TaskTotals, await TASK_TOTALS.row(task=task_id))


# Rounds -----------------------------------------------------------------------------------------

# Idempotent: closing a closed round keeps its first end time.
CLOSE_ROUND = Query("UPDATE rounds SET end_at = COALESCE(end_at, now()) WHERE id = :id RETURNING *")

CURRENT_ROUNDS = Query("""
    SELECT r.* FROM rounds r JOIN tasks t ON t.id = r.task AND r.number = t.current_round
     WHERE t.id = ANY(:tasks)
""")

# Open rounds judged by each of these submissions ("in the loop for round N").
ROUNDS_JUDGED_BY = Query("""
    SELECT (t.target->>'model_id')::int AS model_id, array_agg(r.number ORDER BY r.number) AS rounds
      FROM rounds r CROSS JOIN LATERAL jsonb_array_elements(r.target_models) AS t(target)
     WHERE r.end_at IS NULL AND t.target ? 'model_id' AND (t.target->>'model_id')::int = ANY(:models)
     GROUP BY 1
""")


async def end_open_rounds(task_id: int, at: datetime) -> None:
    await Round.update({Round.end_at: at}).where(Round.task == task_id, Round.end_at.is_null())


async def insert_round(task_id: int, number: int, target_models: list[TargetModelRef], config_version: int) -> RoundRow:
    rows = await Round.insert(
        Round(task=task_id, number=number, target_models=target_models, config_version=config_version)
    ).returning(*Round.all_columns())
    return cast(RoundRow, rows[0])


async def set_round_targets(round_id: int, target_models: list[TargetModelRef]) -> RoundRow | None:
    """None when the round is closed (only open rounds change judges)."""
    rows = (
        await Round.update({Round.target_models: target_models})
        .where((Round.id == round_id) & Round.end_at.is_null())
        .returning(*Round.all_columns())
    )
    return cast(RoundRow, rows[0]) if rows else None


async def set_current_round(task_id: int, number: int) -> None:
    await Task.update({Task.current_round: number}).where(Task.id == task_id)


async def close_round(round_id: int) -> RoundRow:
    return cast(RoundRow, await CLOSE_ROUND.row(id=round_id))


async def round_by_id(round_id: int) -> RoundRow | None:
    return cast(RoundRow | None, await Round.select().where(Round.id == round_id).first())


async def round_by_number(task_id: int, number: int) -> RoundRow | None:
    return cast(RoundRow | None, await Round.select().where(Round.task == task_id, Round.number == number).first())


async def round_numbers(task_id: int) -> set[int]:
    return {row["number"] for row in await Round.select(Round.number).where(Round.task == task_id)}


async def rounds_by_id(ids: Sequence[int]) -> list[RoundRow]:
    return cast(list[RoundRow], await Round.select().where(Round.id.is_in(list(ids))).output(load_json=True))


async def rounds_page(task_id: int, after_id: int | None, limit: int) -> list[RoundRow]:
    """A task's rounds after the cursor, oldest first (a keyset page)."""
    query = Round.select().where(Round.task == task_id)
    if after_id is not None:
        query = query.where(Round.id > after_id)
    return cast(list[RoundRow], await query.order_by(Round.id).limit(limit).output(load_json=True))


async def rounds_judged_by(model_ids: Sequence[int]) -> list[dict[str, Any]]:
    """[{"model_id", "rounds": [numbers of the open rounds it judges]}] for the submissions that judge one."""
    return await ROUNDS_JUDGED_BY.rows(models=list(model_ids))


async def current_rounds(task_ids: Sequence[int]) -> list[RoundRow]:
    """The current round of each task (a task with no round yet has none)."""
    return cast(list[RoundRow], await CURRENT_ROUNDS.rows(tasks=list(task_ids)))


# Contexts ---------------------------------------------------------------------------------------

# The least-used contexts come first; among the few least-used and least-recently-served we pick
# at random, and mark the pick as served, so that annotators spread over the pool. Concurrent picks of
# one round are serialized (SERIALIZE_CONTEXT_PICKS, a transaction-level advisory lock): each one's
# candidates statement starts after the previous pick committed and sees it served (a pick takes about
# a millisecond), so concurrent annotators get different contexts while the pool has enough of them.
SERIALIZE_CONTEXT_PICKS = Query("SELECT pg_advisory_xact_lock(:namespace, :round)")
_CONTEXT_PICKS_LOCK_NAMESPACE = 0xC0417  # the first key of the two-key advisory lock: "context picks"
PICK_LEAST_USED = Query("""
    WITH pick AS (
      SELECT id FROM (
        SELECT id FROM contexts WHERE round = :round
        ORDER BY total_used, last_used_at NULLS FIRST, id LIMIT 8
      ) candidates ORDER BY random() LIMIT 1
    )
    UPDATE contexts SET last_used_at = now() WHERE id = (SELECT id FROM pick) RETURNING *
""")
PICK_LEAST_FOOLED = Query("""
    WITH pick AS (
      SELECT id FROM (
        SELECT id FROM contexts WHERE round = :round
        ORDER BY total_fooled, total_used, last_used_at NULLS FIRST, id LIMIT 8
      ) candidates ORDER BY random() LIMIT 1
    )
    UPDATE contexts SET last_used_at = now() WHERE id = (SELECT id FROM pick) RETURNING *
""")
# Uniform: a random offset into the pool, which an index serves without sorting the whole pool.
PICK_UNIFORM = Query("""
    SELECT * FROM contexts WHERE round = :round
    ORDER BY id OFFSET floor(random() * (SELECT count(*) FROM contexts WHERE round = :round)) LIMIT 1
""")
_PICKS: dict[str, Query] = {
    ContextStrategy.LEAST_USED: PICK_LEAST_USED,
    ContextStrategy.LEAST_FOOLED: PICK_LEAST_FOOLED,
    ContextStrategy.UNIFORM: PICK_UNIFORM,
}

ROUND_CONTEXTS = Query("SELECT * FROM contexts WHERE round = :round AND id > :after ORDER BY id LIMIT :limit")  # a keyset page

# A new round starts with the previous round's contexts, their counters reset.
COPY_CONTEXTS = Query("""
    INSERT INTO contexts (round, fields, tag, total_used, total_fooled, created_at)
    SELECT :to_round, fields, tag, 0, 0, now() FROM contexts WHERE round = :from_round ORDER BY id
""")


async def serialize_context_picks(round_id: int) -> None:
    """Call first in the pick's transaction."""
    await SERIALIZE_CONTEXT_PICKS.execute(namespace=_CONTEXT_PICKS_LOCK_NAMESPACE, round=round_id)


async def pick_context(round_id: int, strategy: ContextStrategy | str) -> ContextRow | None:
    """The next context of a round by `strategy` (any unknown strategy picks the least used); for the
    served-marking strategies, call in a transaction after `serialize_context_picks`."""
    row = await _PICKS.get(strategy, PICK_LEAST_USED).row(round=round_id)
    return cast(ContextRow | None, row)


async def round_contexts_page(round_id: int, after_id: int, limit: int) -> list[ContextRow]:
    return cast(list[ContextRow], await ROUND_CONTEXTS.rows(round=round_id, after=after_id, limit=limit))


async def contexts_by_id(ids: Sequence[int]) -> list[ContextRow]:
    return cast(list[ContextRow], await Context.select().where(Context.id.is_in(list(ids))).output(load_json=True))


async def round_has_contexts(round_id: int) -> bool:
    return await Context.exists().where(Context.round == round_id)


async def insert_contexts(round_id: int, contexts: Sequence[NewContext]) -> None:
    """In batches; the caller's transaction makes it all or nothing."""
    rows = [Context(round=round_id, fields=c["fields"], tag=c["tag"]) for c in contexts]
    for start in range(0, len(rows), INSERT_BATCH):
        await Context.insert(*rows[start : start + INSERT_BATCH])


async def copy_contexts(from_round: int, to_round: int) -> None:
    await COPY_CONTEXTS.execute(from_round=from_round, to_round=to_round)
