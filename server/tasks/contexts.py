"""Choosing the next context for an annotator."""

from __future__ import annotations

from server.core.errors import ServiceError
from server.tasks.tables import Context

# The least-used contexts come first; among the few least-used and least-recently-served we pick
# at random, and mark the pick as served, so that concurrent annotators spread over the pool.
LEAST_USED = """
WITH pick AS (
  SELECT id FROM (
    SELECT id FROM contexts WHERE round = {}
    ORDER BY total_used, last_used_at NULLS FIRST, id LIMIT 8
  ) candidates ORDER BY random() LIMIT 1
)
UPDATE contexts SET last_used_at = now() WHERE id = (SELECT id FROM pick) RETURNING *
"""
LEAST_FOOLED = """
WITH pick AS (
  SELECT id FROM (
    SELECT id FROM contexts WHERE round = {}
    ORDER BY total_fooled, total_used, last_used_at NULLS FIRST, id LIMIT 8
  ) candidates ORDER BY random() LIMIT 1
)
UPDATE contexts SET last_used_at = now() WHERE id = (SELECT id FROM pick) RETURNING *
"""
# Uniform: a random offset into the pool, which an index serves without sorting the whole pool.
UNIFORM = """
SELECT * FROM contexts WHERE round = {}
ORDER BY id OFFSET floor(random() * (SELECT count(*) FROM contexts WHERE round = {})) LIMIT 1
"""


async def next_context(round_id: int, strategy: str) -> dict:
    if strategy == "UNIFORM":
        rows = await Context.raw(UNIFORM, round_id, round_id)
    else:
        rows = await Context.raw(LEAST_FOOLED if strategy == "LEAST_FOOLED" else LEAST_USED, round_id)
    if not rows:
        raise ServiceError("NOT_FOUND", "This round has no contexts yet.")
    return rows[0]
