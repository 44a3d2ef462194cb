"""Storing a judged example: one statement inserts it (once per client UUID) and moves the round,
context and user counters with it."""

from __future__ import annotations

import json
import re
import uuid
from typing import Any

from asyncpg.exceptions import ForeignKeyViolationError

from server.core import db
from server.core.errors import ServiceError, not_found
from server.core.inference import Prediction
from server.tasks.config import TaskConfig


def model_output_document(predictions: list[Prediction]) -> dict[str, Any]:
    first = dict(predictions[0].output)
    if len(predictions) > 1:
        first["by_model"] = [{"model": p.model_name, "version": p.model_version, **p.output} for p in predictions]
    return first


# One statement: the example and every counter it moves commit together (and only if it was new).
# Each counter update depends on the previous one (EXISTS on it), which fixes the order in which the
# rows are locked — round, context, user — the order of every other writer of these counters, so
# concurrent writers cannot deadlock (PostgreSQL runs independent data-modifying CTEs in no set order).
# {source} is empty, or GUARD: then the example is written only if the rows it was judged on are current.
INSERT_EXAMPLE = """
WITH new AS (
  INSERT INTO examples (client_id, round, context, "user", input, model_output, model_name, model_version,
    fooled, status, retracted, flagged, flag_reason, explanation, time_spent_ms, pending_reason, check_attempts,
    next_check_at, created_at)
  SELECT {client_id}, {round}, {context}, {user}, {input}::jsonb, {output}::jsonb, {name}, {version}, {fooled}, {status},
    false, false, '', {explanation}, {time_spent}, {reason}, 0,
    CASE WHEN {pending} THEN now() + interval '2 seconds' END, now()
  {source}
  ON CONFLICT (client_id) DO NOTHING
  RETURNING *
), counted_round AS (
  UPDATE rounds SET total_collected = total_collected + 1, total_fooled = total_fooled + {fooled_int}
  WHERE id = {round} AND EXISTS (SELECT 1 FROM new)
  RETURNING id
), counted_context AS (
  UPDATE contexts SET total_used = total_used + 1, total_fooled = total_fooled + {fooled_int}, last_used_at = now()
  WHERE id = {context} AND EXISTS (SELECT 1 FROM counted_round)
  RETURNING id
), counted_user AS (
  INSERT INTO user_round_stats ("user", round, submitted, fooled, retracted, validations_done)
  SELECT {user}, {round}, 1, {fooled_int}, 0, 0 WHERE EXISTS (SELECT 1 FROM counted_context)
  ON CONFLICT ("user", round) DO UPDATE SET
    submitted = user_round_stats.submitted + 1, fooled = user_round_stats.fooled + EXCLUDED.fooled
)
SELECT * FROM new
"""
GUARD = """FROM rounds r JOIN tasks t ON t.id = r.task JOIN contexts c ON c.id = {context} AND c.round = r.id
  WHERE r.id = {round} AND r.end_at IS NULL AND r.target_models = {seen_targets}::jsonb
    AND t.config = {seen_config}::jsonb AND c.fields = {seen_fields}::jsonb"""


def _positional(template: str) -> tuple[str, tuple[str, ...]]:
    """Named {placeholders} (for readability) → asyncpg's $1, $2...; the same name reuses its number."""
    names: list[str] = []

    def place(match: re.Match) -> str:
        if match.group(1) not in names:
            names.append(match.group(1))
        return f"${names.index(match.group(1)) + 1}"

    return re.sub(r"\{(\w+)\}", place, template), tuple(names)


INSERT_EXAMPLE_SQL, INSERT_EXAMPLE_ARGS = _positional(INSERT_EXAMPLE.replace("{source}", ""))
GUARDED_INSERT_SQL, GUARDED_INSERT_ARGS = _positional(INSERT_EXAMPLE.replace("{source}", GUARD))


def _example_row(record) -> dict:
    row = dict(record)
    for key in ("input", "model_output"):
        if isinstance(row.get(key), str):
            row[key] = json.loads(row[key])
    return row


async def example_by_client_id(client_id: uuid.UUID) -> dict | None:
    rows = await db.fetch("SELECT * FROM examples WHERE client_id = $1", client_id)
    return _example_row(rows[0]) if rows else None


def status_after_verdict(config: TaskConfig, fooled: bool | None) -> str:
    if fooled is None:
        return "pending"
    return "open" if fooled or config.validation.validate_non_fooling else "closed"


async def insert_example(round_row, config, context, user_id, submission, stored_input, predictions, fooled, pending_reason, targets,
                  guard: bool = False):
    """(example, inserted). Guarded: (None, False) when the rows it was judged on are no longer current
    or the client UUID is taken."""
    output = model_output_document(predictions) if predictions else None
    names = [p.model_name for p in predictions] or [t["name"] for t in targets]
    versions = [p.model_version for p in predictions] or [t.get("version", "") for t in targets]
    values = {
        "client_id": submission.client_id, "round": round_row["id"], "context": context["id"], "user": user_id,
        "input": json.dumps(stored_input), "output": json.dumps(output) if output is not None else None,
        "name": "+".join(names), "version": "+".join(versions), "fooled": fooled,
        "status": status_after_verdict(config, fooled), "explanation": submission.explanation,
        "time_spent": submission.time_spent_ms, "reason": pending_reason, "pending": fooled is None,
        "fooled_int": 1 if fooled else 0,
    }
    sql, arguments = INSERT_EXAMPLE_SQL, INSERT_EXAMPLE_ARGS
    if guard:
        sql, arguments = GUARDED_INSERT_SQL, GUARDED_INSERT_ARGS
        values.update(seen_targets=json.dumps(round_row["target_models"]), seen_config=round_row["config_text"],
                      seen_fields=json.dumps(context["fields"]))
    try:
        rows = await db.fetch(sql, *(values[name] for name in arguments))
    except ForeignKeyViolationError as exc:
        # A session is checked by its signature alone; its account may be gone (e.g. a reset database).
        if "user" in (exc.constraint_name or ""):
            raise ServiceError("AUTHENTICATION_FAILED", "Your session has expired or is invalid; log in again.") from None
        raise not_found("That round or context") from None
    if not rows and guard:
        return None, False
    if not rows:  # the same client UUID won a race a moment ago
        row = await example_by_client_id(submission.client_id)
        if row["user"] != user_id:
            raise ServiceError("CONFLICT", "This client UUID belongs to another user's example.")
        return row, False
    return _example_row(rows[0]), True
