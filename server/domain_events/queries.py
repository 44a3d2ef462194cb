"""The domain events' query room: the outbox (server/domain_events/tables.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from server.core.sql import Query

_INSERT = Query(
    """
    INSERT INTO domain_events (event_id, kind, payload, once_key)
    VALUES (:event_id, :kind, :payload::jsonb, :once_key)
    ON CONFLICT DO NOTHING
    RETURNING id
    """
)
_MARK_DELIVERED = Query(
    "UPDATE domain_events SET delivered_at = now() WHERE event_id = ANY(:event_ids::uuid[]) AND delivered_at IS NULL"
)
_UNDELIVERED = Query(
    """
    SELECT event_id::text, kind, payload FROM domain_events
    WHERE delivered_at IS NULL AND recorded_at < now() - make_interval(secs => :grace_s)
    ORDER BY recorded_at LIMIT :limit
    """,
    json=("payload",),
)
# Events with a once key stay: their key is what keeps a second record from being announced.
_PRUNE = Query(
    """
    DELETE FROM domain_events
    WHERE delivered_at < now() - make_interval(secs => :age_s) AND once_key IS NULL
    """
)


async def insert(event_id: str, kind: str, payload: str, once_key: str | None) -> bool:
    """False when an event with this id or once key was recorded before (nothing written)."""
    return await _INSERT.value(event_id=event_id, kind=kind, payload=payload, once_key=once_key) is not None


async def mark_delivered(event_ids: Sequence[str]) -> None:
    await _MARK_DELIVERED.execute(event_ids=list(event_ids))


async def undelivered(grace_s: float, limit: int) -> list[dict[str, Any]]:
    return await _UNDELIVERED.rows(grace_s=float(grace_s), limit=limit)


async def prune(age_s: float) -> int:
    status = await _PRUNE.execute(age_s=float(age_s))
    return int(status.rsplit(" ", 1)[-1])
