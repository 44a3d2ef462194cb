"""The query room of exports: a round's examples with their context and votes, streamed through a cursor."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any, cast

from server.core.sql import Query

EXPORT_ROWS = Query("""
SELECT e.id, e."user", e.input::text AS input, e.model_output::text AS model_output, e.model_name, e.model_version,
  e.fooled, e.status, e.retracted, e.flagged, e.flag_reason, e.explanation, e.time_spent_ms, e.created_at,
  e.assisted_by::text AS assisted_by, c.id AS context_id, c.fields::text AS context_fields, c.tag AS context_tag,
  COALESCE((SELECT json_agg(json_build_object('user', v."user", 'label', v.label, 'mode', v.mode, 'fields', v.fields) ORDER BY v.id)
            FROM validations v WHERE v.example = e.id), '[]')::text AS validations
FROM examples e JOIN contexts c ON c.id = e.context
WHERE e.round = :round_id AND NOT EXISTS (SELECT 1 FROM gold_items g WHERE g.example = e.id AND g.hidden)
ORDER BY e.id
""")


def export_records(round_id: int) -> AsyncIterator[dict[str, Any]]:
    """A round's exported rows through a server-side cursor, on a connection held for the read (close early with
    `contextlib.aclosing`)."""
    return EXPORT_ROWS.stream(round_id=round_id, batch=500)


TASK = Query("SELECT * FROM tasks WHERE id = :id")


async def task_row(task_id: int) -> dict[str, Any]:
    """A task that a row of this domain refers to (so it exists: foreign keys)."""
    return cast(dict[str, Any], await TASK.row(id=task_id))
