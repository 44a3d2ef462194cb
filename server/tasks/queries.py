"""The tasks domain's query room: every statement on tasks, their owners, rounds and contexts, as named `Query`
statements. Other domains read these rows through server/tasks/reads.py."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from datetime import datetime
from typing import Any, cast

from server.core.jsonutil import to_json
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
from server.tasks.round_sql import ROUND_COUNTS, ROUND_TOTALS, rounds_where, with_totals

INSERT_BATCH = 1000  # contexts per INSERT statement

# Tasks ------------------------------------------------------------------------------------------

# A task's config comes back as JSON text unless the caller asks for it decoded (its callers parse it themselves).
TASK_BY_CODE = Query("SELECT * FROM tasks WHERE code = :code LIMIT 1")
TASK_BY_CODE_DECODED = Query(TASK_BY_CODE.text, json=("config",))
TASK_BY_ID = Query("SELECT * FROM tasks WHERE id = :id")
TASKS_BY_ID = Query("SELECT * FROM tasks WHERE id = ANY(:ids::int[])", json=("config",))
# Timestamps are the statement's clock, not the transaction's start: a new round starts after the one it ends.
INSERT_TASK = Query("""
    INSERT INTO tasks (code, name, description, config, status, instructions, created_at)
    VALUES (:code, :name, :description, :config::jsonb, :status, :instructions, clock_timestamp())
    RETURNING *
""")
INSERT_OWNER = Query('INSERT INTO task_owners (task, "user") VALUES (:task, :user)')


async def task_by_code(code: str, *, decode_json: bool = False) -> TaskRow | None:
    return cast(TaskRow | None, await (TASK_BY_CODE_DECODED if decode_json else TASK_BY_CODE).row(code=code))


async def task_by_id(task_id: int) -> TaskRow | None:
    return cast(TaskRow | None, await TASK_BY_ID.row(id=task_id))


async def tasks_by_id(ids: Sequence[int]) -> list[TaskRow]:
    return cast(list[TaskRow], await TASKS_BY_ID.rows(ids=list(ids)))


# Tasks whose current config removes a deleted account's work (config.PersonalDataConfig; its stored form names the
# key only when it says "remove").
TASKS_REMOVING_WORK = Query(
    "SELECT id, code, name FROM tasks WHERE config -> 'personal_data' ->> 'on_account_deletion' = 'remove' ORDER BY id"
)


async def tasks_removing_work() -> list[dict]:
    """Each task (id, code, name) whose current config removes a deleted account's work."""
    return await TASKS_REMOVING_WORK.rows()


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
    row = await INSERT_TASK.row(
        code=code, name=name, description=description, config=to_json(config), status=str(status), instructions=instructions
    )
    task = cast(TaskRow, row)
    await insert_config_version(task["id"], 1, config, created_by)
    return task


async def insert_owner(task_id: int, user_id: int) -> None:
    await INSERT_OWNER.execute(task=task_id, user=user_id)


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
OPEN_ROUND = Query(rounds_where("r.task = :task AND r.end_at IS NULL ORDER BY r.number DESC LIMIT 1"), json=("target_models",))
# What visibility needs of a round's task (permissions.can_view_task), in one small read (nextContext's hot path).
TASK_OF_ROUND = Query("SELECT t.id, t.status FROM rounds r JOIN tasks t ON t.id = r.task WHERE r.id = :round")
CLOSE_OPEN_ROUNDS = Query("UPDATE rounds SET end_at = now() WHERE task = :task AND end_at IS NULL RETURNING id")


async def lock_task(task_id: int) -> TaskRow | None:
    """The task, its row locked until the transaction ends (one change to a task at a time)."""
    return cast(TaskRow | None, await LOCK_TASK.row(id=task_id))


# The columns an owner's or an admin's change sets (config is the only jsonb one).
_UPDATABLE = ("name", "description", "instructions", "config", "config_version", "status", "review_note")


@functools.cache
def _update_statement(columns: tuple[str, ...]) -> Query:
    sets = []
    for column in columns:
        if column not in _UPDATABLE:
            raise ValueError(f"not a task column a change sets: {column}")
        sets.append(f"{column} = :{column}" + ("::jsonb" if column == "config" else ""))
    return Query(f"UPDATE tasks SET {', '.join(sets)} WHERE id = :id RETURNING *")


async def update_task(task_id: int, values: dict[str, Any]) -> TaskRow:
    """Set these columns (names of tasks' columns: name, description, instructions, config, config_version, status,
    review_note); the row comes back with its config as JSON text."""
    arguments = {name: to_json(value) if name == "config" else value for name, value in values.items()}
    return cast(TaskRow, await _update_statement(tuple(values)).row(id=task_id, **arguments))


async def insert_config_version(task_id: int, version: int, config: dict[str, Any], created_by: int | None) -> None:
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
    SELECT coalesce(sum(c.collected), 0)::int AS collected, coalesce(sum(c.fooled), 0)::int AS fooled,
           coalesce(sum(c.validated_fooled), 0)::int AS validated_fooled
      FROM rounds r JOIN round_counts c ON c.round = r.id WHERE r.task = :task
""")


async def task_totals(task_id: int) -> TaskTotals:
    return cast(TaskTotals, await TASK_TOTALS.row(task=task_id))


# Rounds -----------------------------------------------------------------------------------------

# Idempotent: closing a closed round keeps its first end time.
CLOSE_ROUND = Query(with_totals("UPDATE rounds SET end_at = COALESCE(end_at, now()) WHERE id = :id RETURNING *"))

CURRENT_ROUNDS = Query(f"""
    SELECT {ROUND_TOTALS} FROM rounds r JOIN tasks t ON t.id = r.task AND r.number = t.current_round {ROUND_COUNTS}
     WHERE t.id = ANY(:tasks)
""")

# Open rounds judged by each of these submissions ("in the loop for round N").
ROUNDS_JUDGED_BY = Query("""
    SELECT (t.target->>'model_id')::int AS model_id, array_agg(r.number ORDER BY r.number) AS rounds
      FROM rounds r CROSS JOIN LATERAL jsonb_array_elements(r.target_models) AS t(target)
     WHERE r.end_at IS NULL AND t.target ? 'model_id' AND (t.target->>'model_id')::int = ANY(:models)
     GROUP BY 1
""")


END_OPEN_ROUNDS = Query("UPDATE rounds SET end_at = :at WHERE task = :task AND end_at IS NULL")
INSERT_ROUND = Query(
    with_totals("""
    INSERT INTO rounds (task, number, target_models, config_version, start_at)
    VALUES (:task, :number, :targets::jsonb, :config_version, clock_timestamp())
    RETURNING *
""")
)
# Only open rounds change judges.
SET_OPEN_ROUND_TARGETS = Query(
    with_totals("UPDATE rounds SET target_models = :targets::jsonb WHERE id = :id AND end_at IS NULL RETURNING *")
)
SET_CURRENT_ROUND = Query("UPDATE tasks SET current_round = :number WHERE id = :id")
# Single rows come back with target_models as JSON text (their callers decode it), lists and pages decoded.
ROUND_BY_ID = Query(rounds_where("r.id = :id"))
ROUND_BY_NUMBER = Query(rounds_where("r.task = :task AND r.number = :number LIMIT 1"))
ROUND_NUMBERS = Query("SELECT number FROM rounds WHERE task = :task")
ROUNDS_BY_ID = Query(rounds_where("r.id = ANY(:ids::int[])"), json=("target_models",))
ROUNDS_PAGE = Query(
    rounds_where("r.task = :task AND (:after::int IS NULL OR r.id > :after::int) ORDER BY r.id LIMIT :limit"),
    json=("target_models",),
)


async def end_open_rounds(task_id: int, at: datetime) -> None:
    await END_OPEN_ROUNDS.execute(task=task_id, at=at)


async def insert_round(task_id: int, number: int, target_models: list[TargetModelRef], config_version: int) -> RoundRow:
    row = await INSERT_ROUND.row(task=task_id, number=number, targets=to_json(target_models), config_version=config_version)
    return cast(RoundRow, row)


async def set_round_targets(round_id: int, target_models: list[TargetModelRef]) -> RoundRow | None:
    """None when the round is closed (only open rounds change judges)."""
    return cast(RoundRow | None, await SET_OPEN_ROUND_TARGETS.row(id=round_id, targets=to_json(target_models)))


async def set_current_round(task_id: int, number: int) -> None:
    await SET_CURRENT_ROUND.execute(id=task_id, number=number)


async def close_round(round_id: int) -> RoundRow:
    return cast(RoundRow, await CLOSE_ROUND.row(id=round_id))


async def round_by_id(round_id: int) -> RoundRow | None:
    return cast(RoundRow | None, await ROUND_BY_ID.row(id=round_id))


async def round_by_number(task_id: int, number: int) -> RoundRow | None:
    return cast(RoundRow | None, await ROUND_BY_NUMBER.row(task=task_id, number=number))


async def round_numbers(task_id: int) -> set[int]:
    return {row["number"] for row in await ROUND_NUMBERS.records(task=task_id)}


async def rounds_by_id(ids: Sequence[int]) -> list[RoundRow]:
    return cast(list[RoundRow], await ROUNDS_BY_ID.rows(ids=list(ids)))


async def rounds_page(task_id: int, after_id: int | None, limit: int) -> list[RoundRow]:
    """A task's rounds after the cursor, oldest first (a keyset page)."""
    return cast(list[RoundRow], await ROUNDS_PAGE.rows(task=task_id, after=after_id, limit=limit))


async def rounds_judged_by(model_ids: Sequence[int]) -> list[dict[str, Any]]:
    """[{"model_id", "rounds": [numbers of the open rounds it judges]}] for the submissions that judge one."""
    return await ROUNDS_JUDGED_BY.rows(models=list(model_ids))


async def current_rounds(task_ids: Sequence[int]) -> list[RoundRow]:
    """The current round of each task (a task with no round yet has none)."""
    return cast(list[RoundRow], await CURRENT_ROUNDS.rows(tasks=list(task_ids)))


# Contexts ---------------------------------------------------------------------------------------

# The least-used contexts come first; among the few least-used and least-recently-served we pick
# at random, and mark the pick as served, so that annotators spread over the pool. Concurrent picks of
# one round are serialized: the function pick_served_context (tasks migration 2026-12-25) takes the
# round's advisory lock, then picks with a snapshot taken after it, so each pick sees every earlier one
# served and concurrent annotators get different contexts while the pool has enough of them. One
# statement, alone in its transaction: the lock is held only while the database runs it.
PICK_SERVED = Query("SELECT * FROM pick_served_context(:round, :least_fooled)")
# Uniform: a random offset into the pool, which an index serves without sorting the whole pool.
PICK_UNIFORM = Query("""
    SELECT * FROM contexts WHERE round = :round
    ORDER BY id OFFSET floor(random() * (SELECT count(*) FROM contexts WHERE round = :round)) LIMIT 1
""")

ROUND_CONTEXTS = Query("SELECT * FROM contexts WHERE round = :round AND id > :after ORDER BY id LIMIT :limit")  # a keyset page

# A new round starts with the previous round's contexts, their counters reset.
COPY_CONTEXTS = Query("""
    INSERT INTO contexts (round, fields, tag, total_used, total_fooled, created_at)
    SELECT :to_round, fields, tag, 0, 0, now() FROM contexts WHERE round = :from_round ORDER BY id
""")


async def pick_context(round_id: int, strategy: ContextStrategy | str) -> ContextRow | None:
    """The next context of a round by `strategy` (any unknown strategy picks the least used, marked served)."""
    if strategy == ContextStrategy.UNIFORM:
        row = await PICK_UNIFORM.row(round=round_id)
    else:
        row = await PICK_SERVED.row(round=round_id, least_fooled=strategy == ContextStrategy.LEAST_FOOLED)
    return cast(ContextRow | None, row)


async def round_contexts_page(round_id: int, after_id: int, limit: int) -> list[ContextRow]:
    return cast(list[ContextRow], await ROUND_CONTEXTS.rows(round=round_id, after=after_id, limit=limit))


CONTEXTS_BY_ID = Query("SELECT * FROM contexts WHERE id = ANY(:ids::int[])", json=("fields",))
ROUND_HAS_CONTEXTS = Query("SELECT EXISTS (SELECT 1 FROM contexts WHERE round = :round)")
# A batch in the given order (ids follow it), each row stamped when it is written.
INSERT_CONTEXTS = Query("""
    INSERT INTO contexts (round, fields, tag, created_at)
    SELECT :round, c.fields::jsonb, c.tag, clock_timestamp()
      FROM unnest(:fields::text[], :tags::text[]) WITH ORDINALITY AS c(fields, tag, position)
     ORDER BY c.position
""")


async def contexts_by_id(ids: Sequence[int]) -> list[ContextRow]:
    return cast(list[ContextRow], await CONTEXTS_BY_ID.rows(ids=list(ids)))


async def round_has_contexts(round_id: int) -> bool:
    return bool(await ROUND_HAS_CONTEXTS.value(round=round_id))


async def insert_contexts(round_id: int, contexts: Sequence[NewContext]) -> None:
    """In batches; the caller's transaction makes it all or nothing."""
    for start in range(0, len(contexts), INSERT_BATCH):
        batch = contexts[start : start + INSERT_BATCH]
        await INSERT_CONTEXTS.execute(
            round=round_id, fields=[to_json(c["fields"]) for c in batch], tags=[c["tag"] for c in batch]
        )


async def copy_contexts(from_round: int, to_round: int) -> None:
    await COPY_CONTEXTS.execute(from_round=from_round, to_round=to_round)


# Target models an admin shared with every task owner (server/tasks/shared_targets.py) ----------

SHARED_TARGETS = Query("SELECT name FROM shared_target_models ORDER BY name")
SHARE_TARGET = Query("""
    INSERT INTO shared_target_models (name, shared_by) VALUES (:name, :actor) ON CONFLICT (name) DO NOTHING RETURNING name
""")
UNSHARE_TARGET = Query("DELETE FROM shared_target_models WHERE name = :name RETURNING name")


async def shared_target_names() -> list[str]:
    return [row["name"] for row in await SHARED_TARGETS.rows()]


async def set_target_shared(name: str, shared: bool, actor: int) -> bool:
    """True when this changed anything (the model was not already in that state)."""
    if shared:
        return await SHARE_TARGET.row(name=name, actor=actor) is not None
    return await UNSHARE_TARGET.row(name=name) is not None
