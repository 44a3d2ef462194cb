"""Round jobs: counters recomputed from rows (idempotent, safe to retry or run concurrently)."""

from __future__ import annotations

from server.core import events

RECOMPUTE_ROUND_SQL = """
UPDATE rounds r SET
  total_collected = s.collected,
  total_fooled = s.fooled,
  total_validated = s.validated,
  total_validated_fooled = s.validated_fooled
FROM (
  SELECT
    count(*) FILTER (WHERE NOT e.retracted) AS collected,
    count(*) FILTER (WHERE NOT e.retracted AND e.fooled) AS fooled,
    count(*) FILTER (WHERE NOT e.retracted AND e.status = 'validated') AS validated,
    count(*) FILTER (WHERE NOT e.retracted AND e.fooled AND e.status = 'validated') AS validated_fooled
  FROM examples e WHERE e.round = {}
) s
WHERE r.id = {}
RETURNING r.total_collected, r.total_fooled, r.total_validated, r.total_validated_fooled
"""


async def recompute_round(round_id: int) -> list[dict]:
    """Recount a round from its examples. The round row is locked first: under READ COMMITTED the
    recount then runs on a fresh snapshot that includes every concurrent change committed before the
    lock was granted (otherwise two concurrent recounts each miss the other's status change)."""
    from server.tasks.tables import Round

    async with Round._meta.db.transaction():  # joins the caller's transaction if there is one
        await Round.raw("SELECT id FROM rounds WHERE id = {} FOR UPDATE", round_id)
        return await Round.raw(RECOMPUTE_ROUND_SQL, round_id, round_id)


async def recompute_round_counters(ctx: dict, round_id: int) -> dict | None:
    rows = await recompute_round(round_id)
    if not rows:
        return None
    await events.publish(ctx["redis"], events.RoundStatsChanged(round_id=round_id))
    return rows[0]
