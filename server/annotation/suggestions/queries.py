"""The query room of suggestions: the suggestions issued to authors, and the round's numbers with and without them."""

from __future__ import annotations

import uuid
from typing import Any

from server import permissions
from server.core.sql import Query

_JSON = ("fields", "prediction")

# The round, the config version it runs with, its task's texts (the generator's brief), the context, and whether the
# author may see the task (permissions/: a hidden task's round is as good as missing), in one round trip.
LOAD = Query(
    f"""
SELECT r.id, r.task, r.end_at, r.target_models, coalesce(v.config, t.config)::text AS config, t.name AS task_name,
  t.description, t.instructions, c.id AS context_id, c.round AS context_round, c.fields AS context_fields,
  {permissions.task_visible_sql("t", ":user")} AS may_write
FROM rounds r JOIN tasks t ON t.id = r.task LEFT JOIN contexts c ON c.id = :context_id
  LEFT JOIN task_config_versions v ON v.task = r.task AND v.version = r.config_version
WHERE r.id = :round_id
""",
    json=("target_models", "context_fields"),
)

INSERT = Query(
    """
INSERT INTO suggestions (request_id, position, "user", round, context, kind, source, source_version, fields, label,
  prediction)
VALUES (:request_id, :position, :user, :round, :context, :kind, :source, :version, :fields::jsonb, :label,
  :prediction::jsonb)
ON CONFLICT (request_id, position) DO NOTHING
""",
)
# Two racing requests with one client UUID: the second waits for the first and then stores nothing of its own.
LOCK_REQUEST = Query("SELECT pg_advisory_xact_lock(hashtextextended(:key, 31))")
BY_REQUEST = Query("SELECT * FROM suggestions WHERE request_id = :request_id ORDER BY position", json=_JSON)
BY_ID = Query("SELECT * FROM suggestions WHERE id = :id", json=_JSON)

# Per round, over people's examples that are not retracted (hidden uploaded gold and adversary runs' excluded),
# assisted (written from a suggestion) and not: collected, fooled, validated fooled, and the median time spent on a
# fooling example (time_spent_ms as the client measured it: from the context shown to the submission).
ROUND_ASSISTANCE = Query(
    """
SELECT (e.assisted_by IS NOT NULL) AS assisted, count(*) AS collected, count(*) FILTER (WHERE e.fooled) AS fooled,
  count(*) FILTER (WHERE e.fooled AND e.status = 'validated') AS validated_fooled,
  percentile_cont(0.5) WITHIN GROUP (ORDER BY e.time_spent_ms) FILTER (WHERE e.fooled) AS median_ms_to_fool,
  count(*) FILTER (WHERE e.fooled AND e.time_spent_ms IS NOT NULL) AS timed_fooled,
  count(*) FILTER (WHERE e.assisted_by ->> 'edited' = 'true') AS edited
FROM examples e
WHERE e.round = :round AND NOT e.retracted AND e.assisted_by ->> 'kind' IS DISTINCT FROM 'machine'
  AND NOT EXISTS (SELECT 1 FROM gold_items g WHERE g.example = e.id AND g.hidden)
GROUP BY 1
""",
)


async def load(round_id: int, context_id: int, user_id: int) -> dict[str, Any] | None:
    return await LOAD.row(round_id=round_id, context_id=context_id, user=user_id)


async def insert_once(request_id: uuid.UUID, rows: list[dict[str, Any]]) -> None:
    """The request's rows, unless a racing request with the same UUID stored its own first (call in a transaction)."""
    await LOCK_REQUEST.execute(key=f"suggestions:{request_id}")
    if await BY_REQUEST.rows(request_id=request_id):
        return
    for row in rows:
        await INSERT.execute(**row)


async def by_request(request_id: uuid.UUID) -> list[dict[str, Any]]:
    return await BY_REQUEST.rows(request_id=request_id)


async def by_id(suggestion_id: int) -> dict[str, Any] | None:
    return await BY_ID.row(id=suggestion_id)


async def round_assistance(round_id: int) -> list[dict[str, Any]]:
    return await ROUND_ASSISTANCE.rows(round=round_id)
