"""The query room of writing examples: every statement that stores, changes, lists or re-judges an example."""

from __future__ import annotations

import uuid
from typing import Any, cast

import asyncpg

from server import permissions
from server.annotation.records import ClaimedPending, ExampleRow, SettledExample
from server.annotation.round_count_queries import counted_from
from server.core.sql import Query

_EXAMPLE_JSON = ("input", "model_output", "assisted_by")

# --- createExample ------------------------------------------------------------------------------

# Who may write to a task's rounds: whoever may see the task (an ARCHIVED one has no open round); a PROPOSED, REJECTED
# or HIDDEN task's ids are sequential, so knowing them proves nothing. The rule and its SQL form live in permissions/.
_WRITER_SEES_TASK = permissions.task_visible_sql("t", ":user")
# Round, the config version it runs with (server/tasks/service.round_config), context, whether the client UUID is
# taken and whether the writer may see the task, in one round trip.
LOAD = Query(f"""
SELECT r.id, r.task, r.end_at, r.target_models::text AS target_models, coalesce(v.config, t.config)::text AS config,
  c.id AS context_id, c.round AS context_round, c.fields::text AS context_fields,
  EXISTS (SELECT 1 FROM examples e WHERE e.client_id = :client_id) AS client_id_used, {_WRITER_SEES_TASK} AS may_write
FROM rounds r JOIN tasks t ON t.id = r.task LEFT JOIN contexts c ON c.id = :context_id
  LEFT JOIN task_config_versions v ON v.task = r.task AND v.version = r.config_version
WHERE r.id = :round_id
""")

# One statement: the example and every counter it moves commit together (and only if it was new).
# Each counter update depends on the previous one (EXISTS on it), which fixes the order in which the
# rows are locked — the round's counters' shard, context, user — the order of every other writer of these counters,
# so concurrent writers cannot deadlock (PostgreSQL runs independent data-modifying CTEs in no set order). The
# round's counters are a shard row of the writer's connection (server/annotation/round_counts.py), not the round row:
# concurrent examples of one round do not wait for each other there.
# {source} is empty, or _GUARD: then the example is written only if the rows it was judged on are current.
_INSERT_EXAMPLE = """
WITH new AS (
  INSERT INTO examples (client_id, round, context, "user", input, model_output, model_name, model_version,
    fooled, status, retracted, flagged, flag_reason, explanation, time_spent_ms, pending_reason, check_attempts,
    next_check_at, created_at, assisted_by)
  SELECT :client_id, :round, :context, :user, :input::jsonb, :output::jsonb, :name, :version, :fooled, :status,
    false, false, '', :explanation, :time_spent, :reason, 0,
    CASE WHEN :pending THEN now() + interval '2 seconds' END, now(), :assisted_by::jsonb
  {source}
  ON CONFLICT (client_id) DO NOTHING
  RETURNING *
), {counted}, counted_context AS (
  UPDATE contexts SET total_used = total_used + 1, total_fooled = total_fooled + :fooled_int, last_used_at = now()
  WHERE id = :context AND EXISTS (SELECT 1 FROM counted_round)
  RETURNING id
), counted_user AS (
  INSERT INTO user_round_stats ("user", round, submitted, fooled, retracted, validations_done)
  SELECT :user, :round, 1, :fooled_int, 0, 0 WHERE EXISTS (SELECT 1 FROM counted_context)
  ON CONFLICT ("user", round) DO UPDATE SET
    submitted = user_round_stats.submitted + 1, fooled = user_round_stats.fooled + EXCLUDED.fooled
)
SELECT * FROM new
"""
_GUARD = (
    """FROM rounds r JOIN tasks t ON t.id = r.task JOIN contexts c ON c.id = :context AND c.round = r.id
  WHERE r.id = :round AND r.end_at IS NULL AND r.target_models = :seen_targets::jsonb
    AND coalesce((SELECT v.config FROM task_config_versions v WHERE v.task = r.task AND v.version = r.config_version),
                  t.config) = :seen_config::jsonb
    AND c.fields = :seen_fields::jsonb AND """
    + _WRITER_SEES_TASK
)
_INSERT_EXAMPLE = _INSERT_EXAMPLE.replace("{counted}", counted_from("new", "round", "1, :fooled_int, 0, 0"))
INSERT_EXAMPLE = Query(_INSERT_EXAMPLE.replace("{source}", ""), json=_EXAMPLE_JSON)
GUARDED_INSERT_EXAMPLE = Query(_INSERT_EXAMPLE.replace("{source}", _GUARD), json=_EXAMPLE_JSON)

EXAMPLE_BY_CLIENT_ID = Query("SELECT * FROM examples WHERE client_id = :client_id", json=_EXAMPLE_JSON)
EXAMPLE_BY_ID = Query("SELECT * FROM examples WHERE id = :id", json=_EXAMPLE_JSON)
EXAMPLES_BY_IDS = Query("SELECT * FROM examples WHERE id = ANY(:ids::int[])", json=_EXAMPLE_JSON)


async def load_for_writing(round_id: int, context_id: int, client_id: uuid.UUID | None, user_id: int) -> list[asyncpg.Record]:
    """Raw records: the write path reads a handful of their fields and converts nothing else."""
    return await LOAD.records(round_id=round_id, context_id=context_id, client_id=client_id, user=user_id)


async def insert_example(values: dict[str, Any], *, guard: bool) -> ExampleRow | None:
    """The new example (with its counters moved), or None when its client UUID is taken (or, guarded,
    when the rows it was judged on are no longer current)."""
    row = await (GUARDED_INSERT_EXAMPLE if guard else INSERT_EXAMPLE).row(**values)
    return cast(ExampleRow | None, row)


async def example_by_client_id(client_id: uuid.UUID) -> ExampleRow | None:
    return cast(ExampleRow | None, await EXAMPLE_BY_CLIENT_ID.row(client_id=client_id))


async def example_by_id(example_id: int) -> ExampleRow | None:
    return cast(ExampleRow | None, await EXAMPLE_BY_ID.row(id=example_id))


async def examples_by_ids(example_ids: list[int]) -> list[ExampleRow]:
    return cast(list[ExampleRow], await EXAMPLES_BY_IDS.rows(ids=example_ids))


# --- the viewer's examples ----------------------------------------------------------------------

# Newest first, as keyset pages (id <= the cursor's id − 1): served by the indexes ("user", id) and
# ("user", round, id) on a million examples (tests/scale checks the plans).
MY_EXAMPLES = Query(
    'SELECT * FROM examples WHERE "user" = :user_id AND id <= :below ORDER BY id DESC LIMIT :limit', json=_EXAMPLE_JSON
)
MY_EXAMPLES_IN_ROUND = Query(
    'SELECT * FROM examples WHERE "user" = :user_id AND round = :round_id AND id <= :below ORDER BY id DESC LIMIT :limit',
    json=_EXAMPLE_JSON,
)


async def my_examples(user_id: int, round_id: int | None, below: int, limit: int) -> list[ExampleRow]:
    if round_id is None:
        rows = await MY_EXAMPLES.rows(user_id=user_id, below=below, limit=limit)
    else:
        rows = await MY_EXAMPLES_IN_ROUND.rows(user_id=user_id, round_id=round_id, below=below, limit=limit)
    return cast(list[ExampleRow], rows)


# --- retract, flag, explain ---------------------------------------------------------------------

RETRACT = Query(
    """
WITH changed AS (
  UPDATE examples x SET retracted = true WHERE id = :id AND NOT retracted
  RETURNING round, context, "user", fooled, status,
    EXISTS (SELECT 1 FROM gold_items g WHERE g.example = x.id AND g.hidden) AS hidden_gold
), {counted}, c AS (  -- after counted_round (EXISTS on it): locks in the order of every writer of the counters
  UPDATE contexts SET total_fooled = total_fooled - (SELECT count(*) FROM changed WHERE fooled)
  WHERE id = (SELECT context FROM changed) AND EXISTS (SELECT 1 FROM counted_round)
  RETURNING id
), u AS (  -- the per-user counters count fooled examples that are not retracted (validation/queries.RECOUNT_USER)
  UPDATE user_round_stats SET retracted = retracted + 1,
    fooled = fooled - (SELECT count(*) FROM changed WHERE fooled),
    fooled_rejected = fooled_rejected - (SELECT count(*) FROM changed WHERE fooled AND status = 'rejected')
  WHERE "user" = (SELECT "user" FROM changed) AND round = (SELECT round FROM changed) AND EXISTS (SELECT 1 FROM c)
)
SELECT count(*) AS n FROM changed
""".replace(
        "{counted}",
        # What a retracted example stops counting for (round_counts.contribution): a hidden gold one counted nothing.
        counted_from(
            "changed",
            "round",
            """-(NOT hidden_gold)::int, -(NOT hidden_gold AND fooled IS TRUE)::int, -(NOT hidden_gold AND status = 'validated')::int,
  -(NOT hidden_gold AND fooled IS TRUE AND status = 'validated')::int""",
        ),
    )
)
FLAG = Query("UPDATE examples SET flagged = true, flag_reason = :reason WHERE id = :id")
EXPLAIN = Query("UPDATE examples SET explanation = :explanation WHERE id = :id")


async def retract(example_id: int) -> None:
    await RETRACT.rows(id=example_id)


async def flag(example_id: int, reason: str) -> None:
    await FLAG.execute(id=example_id, reason=reason)


async def explain(example_id: int, explanation: str) -> None:
    await EXPLAIN.execute(id=example_id, explanation=explanation)


# --- the author's claim (fooling ask_user) ------------------------------------------------------

# Once: only an example still awaiting its claim takes one (a concurrent second claim finds no row). Its
# counters then move like a pending example's verdict (count_fooled: round, context, user, after this row).
SETTLE_CLAIM = Query(
    """
UPDATE examples SET fooled = :fooled, status = :status, claim_client_id = :client_id
WHERE id = :id AND status = 'awaiting_claim' AND claim_client_id IS NULL AND NOT retracted
RETURNING *
""",
    json=_EXAMPLE_JSON,
)


async def settle_claim(example_id: int, fooled: bool, status: str, client_id: uuid.UUID) -> ExampleRow | None:
    """The example with its claim stored, or None when it no longer awaits one."""
    row = await SETTLE_CLAIM.row(id=example_id, fooled=fooled, status=status, client_id=client_id)
    return cast(ExampleRow | None, row)


# --- the author's follow-up answers (fields asked after the verdict) --------------------------------

# Once per example: the answers join its stored input, while the verdict they were asked for still stands and no
# validator has decided it (a concurrent second answer, or a retry, finds no row and is told apart by its UUID).
SET_FOLLOW_UP = Query(
    """
UPDATE examples SET input = input || :values::jsonb, follow_up_client_id = :client_id
WHERE id = :id AND follow_up_client_id IS NULL AND NOT retracted AND fooled = :fooled AND status IN ('open', 'closed')
RETURNING *
""",
    json=_EXAMPLE_JSON,
)
CONTEXT_FIELDS = Query("SELECT fields::text AS fields FROM contexts WHERE id = :id")


async def set_follow_up(example_id: int, fooled: bool, values: str, client_id: uuid.UUID) -> ExampleRow | None:
    """The example with the answers stored (`values`: a JSON object), or None when it no longer takes them."""
    row = await SET_FOLLOW_UP.row(id=example_id, fooled=fooled, values=values, client_id=client_id)
    return cast(ExampleRow | None, row)


async def context_fields(context_id: int) -> str:
    """The context's fields (JSON text) an example was written against."""
    return cast(str, await CONTEXT_FIELDS.value(id=context_id))


# --- pending examples ---------------------------------------------------------------------------

CLAIM_PENDING = Query(
    """
UPDATE examples SET next_check_at = now() + interval '60 seconds'
WHERE id IN (
  SELECT id FROM examples
  WHERE status = 'pending' AND NOT retracted AND next_check_at <= now()
  ORDER BY next_check_at LIMIT :limit
  FOR UPDATE SKIP LOCKED
)
RETURNING id, round, context, "user", input, model_output, model_name, model_version, check_attempts
""",
    json=("input", "model_output"),
)
SETTLE_PENDING = Query("""
UPDATE examples SET fooled = :fooled, status = :status, model_output = :output::jsonb, model_name = :name,
  model_version = :version, pending_reason = '', next_check_at = NULL
WHERE id = :id AND status = 'pending' AND NOT retracted
RETURNING id, round, context, "user", fooled, status
""")
BACK_OFF = Query("""
UPDATE examples SET check_attempts = check_attempts + 1, pending_reason = :reason,
  next_check_at = now() + make_interval(secs => least(300, 2 * power(2, least(check_attempts, 8))))
WHERE id = :id AND status = 'pending'
""")
BACKED_OFF_MODELS = Query("""
SELECT DISTINCT model_name, model_version FROM examples
WHERE status = 'pending' AND NOT retracted AND next_check_at > now() AND check_attempts < :max_attempts
""")
WAKE_PENDING = Query("""
UPDATE examples SET next_check_at = now()
WHERE status = 'pending' AND NOT retracted AND next_check_at > now() AND check_attempts < :max_attempts
  AND model_name = :name AND model_version = :version
RETURNING id
""")
# A pending example (already counted as collected) turned out to fool the model: the same lock order
# as every writer of these counters (round, context, user).
COUNT_FOOLED_ROUND = Query(f"""
WITH {counted_from("(SELECT :round_id::int AS round)", "round", "0, 1, 0, 0")}
SELECT count(*) AS n FROM counted_round
""")
COUNT_FOOLED_CONTEXT = Query("UPDATE contexts SET total_fooled = total_fooled + 1 WHERE id = :context_id")
COUNT_FOOLED_USER = Query('UPDATE user_round_stats SET fooled = fooled + 1 WHERE "user" = :user_id AND round = :round_id')


async def claim_pending(limit: int) -> list[ClaimedPending]:
    return cast(list[ClaimedPending], await CLAIM_PENDING.rows(limit=limit))


async def settle_pending(
    example_id: int, fooled: bool | None, status: str, output: str, name: str, version: str
) -> list[SettledExample]:
    rows = await SETTLE_PENDING.rows(id=example_id, fooled=fooled, status=status, output=output, name=name, version=version)
    return cast(list[SettledExample], rows)


async def back_off(example_id: int, reason: str) -> None:
    await BACK_OFF.execute(id=example_id, reason=reason)


async def backed_off_models(max_attempts: int) -> list[dict[str, Any]]:
    return await BACKED_OFF_MODELS.rows(max_attempts=max_attempts)


async def wake_pending(max_attempts: int, name: str, version: str) -> int:
    return len(await WAKE_PENDING.records(max_attempts=max_attempts, name=name, version=version))


async def count_fooled(round_id: int, context_id: int, user_id: int) -> None:
    await COUNT_FOOLED_ROUND.execute(round_id=round_id)
    await COUNT_FOOLED_CONTEXT.execute(context_id=context_id)
    await COUNT_FOOLED_USER.execute(user_id=user_id, round_id=round_id)


# --- rows of the tasks domain that a re-check reads ---------------------------------------------

TASK = Query("SELECT * FROM tasks WHERE id = :id")


async def task_row(task_id: int) -> dict[str, Any]:
    """A task that a row of this domain refers to (so it exists: foreign keys)."""
    return cast(dict[str, Any], await TASK.row(id=task_id))


CONTEXT = Query("SELECT * FROM contexts WHERE id = :id", json=("fields",))


async def context_row(context_id: int) -> dict[str, Any]:
    """An example's context (so it exists: foreign keys)."""
    return cast(dict[str, Any], await CONTEXT.row(id=context_id))
