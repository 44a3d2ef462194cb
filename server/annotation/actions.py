"""What annotators do to their own examples afterwards: retract, flag, explain."""

from __future__ import annotations

import json

from server.annotation.tables import Example
from server.core.errors import FieldProblem, ServiceError, invalid, not_found
from server.core.storable import text_problem

MAX_REASON = 2000


async def own_example(example_id: int, user_id: int) -> dict:
    row = await Example.select().where(Example.id == example_id).first().output(load_json=True)
    if row is None:
        raise not_found("That example")
    if row["user"] != user_id:
        raise ServiceError("FORBIDDEN", "You can change only your own examples.")
    return row


RETRACT = """
WITH changed AS (
  UPDATE examples SET retracted = true WHERE id = {} AND NOT retracted
  RETURNING round, context, "user", fooled, status
), r AS (
  UPDATE rounds SET
    total_collected = total_collected - 1,
    total_fooled = total_fooled - (SELECT count(*) FROM changed WHERE fooled),
    total_validated = total_validated - (SELECT count(*) FROM changed WHERE status = 'validated'),
    total_validated_fooled = total_validated_fooled - (SELECT count(*) FROM changed WHERE fooled AND status = 'validated')
  WHERE id = (SELECT round FROM changed)
  RETURNING id
), c AS (  -- after r (EXISTS on it): rows are locked round, context, user, as by every writer
  UPDATE contexts SET total_fooled = total_fooled - (SELECT count(*) FROM changed WHERE fooled)
  WHERE id = (SELECT context FROM changed) AND EXISTS (SELECT 1 FROM r)
  RETURNING id
), u AS (  -- the per-user counters count fooled examples that are not retracted (validating.RECOUNT_USER)
  UPDATE user_round_stats SET retracted = retracted + 1,
    fooled = fooled - (SELECT count(*) FROM changed WHERE fooled),
    fooled_rejected = fooled_rejected - (SELECT count(*) FROM changed WHERE fooled AND status = 'rejected')
  WHERE "user" = (SELECT "user" FROM changed) AND round = (SELECT round FROM changed) AND EXISTS (SELECT 1 FROM c)
)
SELECT count(*) AS n FROM changed
"""


async def retract_example(example_id: int, user_id: int) -> dict:
    """Idempotent: retracting twice changes nothing the second time."""
    await own_example(example_id, user_id)
    async with Example._meta.db.transaction():
        await Example.raw(RETRACT, example_id)
    return await own_example(example_id, user_id)


async def flag_example(example_id: int, user_id: int, reason: str) -> dict:
    await own_example(example_id, user_id)
    if len(reason) > MAX_REASON or text_problem(reason):
        raise invalid("The reason is not valid.", FieldProblem("reason", f"at most {MAX_REASON} characters of text"))
    await Example.update({Example.flagged: True, Example.flag_reason: reason.strip()}).where(Example.id == example_id)
    return await own_example(example_id, user_id)


async def explain_example(example_id: int, user_id: int, explanation: str) -> dict:
    await own_example(example_id, user_id)
    if len(explanation) > MAX_REASON or text_problem(explanation):
        raise invalid("The explanation is not valid.", FieldProblem("explanation", f"at most {MAX_REASON} characters of text"))
    await Example.update({Example.explanation: explanation.strip()}).where(Example.id == example_id)
    return await own_example(example_id, user_id)


def as_json(value):
    return json.loads(value) if isinstance(value, str) else value
