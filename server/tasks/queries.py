"""The tasks domain's query room: every statement on tasks, their owners, rounds and contexts
(hand-written SQL as `Query` constants, the rest through Piccolo's query builder)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, cast

from server.core.sql import Query
from server.tasks.records import ContextRow, ContextStrategy, NewContext, RoundRow, TargetModelRef, TaskRow, TaskTotals
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


async def active_tasks_page(after_id: int | None, limit: int) -> list[TaskRow]:
    """Active tasks after the cursor, oldest first (a keyset page)."""
    query = Task.select().where(Task.active == True)  # noqa: E712 — Piccolo builds SQL from this
    if after_id is not None:
        query = query.where(Task.id > after_id)
    return cast(list[TaskRow], await query.order_by(Task.id).limit(limit).output(load_json=True))


async def insert_task(code: str, name: str, description: str, config: dict[str, Any]) -> TaskRow:
    rows = await Task.insert(Task(code=code, name=name, description=description, config=config)).returning(*Task.all_columns())
    return cast(TaskRow, rows[0])


async def insert_owner(task_id: int, user_id: int) -> None:
    await TaskOwner.insert(TaskOwner(task=task_id, user=user_id))


# Totals over all of a task's rounds (TaskNode.mer / vmer).
TASK_TOTALS = Query("""
    SELECT coalesce(sum(total_collected), 0) AS collected, coalesce(sum(total_fooled), 0) AS fooled,
           coalesce(sum(total_validated_fooled), 0) AS validated_fooled
      FROM rounds WHERE task = :task
""")


async def task_totals(task_id: int) -> TaskTotals:
    return cast(TaskTotals, await TASK_TOTALS.row(task=task_id))


# Rounds -----------------------------------------------------------------------------------------

# Locks the task row so two owners opening a round at once get consecutive numbers.
LOCK_CURRENT_ROUND = Query("SELECT current_round FROM tasks WHERE id = :task FOR UPDATE")

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


async def lock_current_round(task_id: int) -> int:
    """The task's current round number, its row locked until the transaction ends."""
    return int(await LOCK_CURRENT_ROUND.value(task=task_id))


async def end_open_rounds(task_id: int, at: datetime) -> None:
    await Round.update({Round.end_at: at}).where(Round.task == task_id, Round.end_at.is_null())


async def insert_round(task_id: int, number: int, target_models: list[TargetModelRef]) -> RoundRow:
    rows = await Round.insert(Round(task=task_id, number=number, target_models=target_models)).returning(*Round.all_columns())
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
# at random, and mark the pick as served, so that concurrent annotators spread over the pool.
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


async def pick_context(round_id: int, strategy: ContextStrategy | str) -> ContextRow | None:
    """The next context of a round by `strategy` (any unknown strategy picks the least used)."""
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
