"""The query room of rounds' counters (`round_counts`: a few shard rows per round; server/annotation/round_counts.py).

Writers add differences to their connection's shard while holding the round's counters *shared* (a transaction-level
advisory lock: writers never wait for each other on it); a recount from rows holds it exclusively, so it starts after
every write in flight committed and no write lands between its count and its store."""

from __future__ import annotations

from typing import Any

from server.annotation.round_counts import SHARDS, RoundCounts
from server.core.sql import Query

LOCK_NAMESPACE = 0xC0C47  # the first key of the two-key advisory lock: "a round's counters"
_SHARD = f"(pg_backend_pid() % {SHARDS})"
_ADD_ON_CONFLICT = """ON CONFLICT (round, shard) DO UPDATE SET collected = round_counts.collected + EXCLUDED.collected,
    fooled = round_counts.fooled + EXCLUDED.fooled, validated = round_counts.validated + EXCLUDED.validated,
    validated_fooled = round_counts.validated_fooled + EXCLUDED.validated_fooled"""


def counted_from(source: str, round_column: str, counts: str) -> str:
    """Two CTEs for a statement that changes examples: `held` (the rows of `source`, with the round's counters held
    shared) and `counted_round` (the differences added to the writer's shard; `counts` are four expressions over
    `held`'s columns: collected, fooled, validated, validated_fooled). Later CTEs order their locks after it with
    EXISTS (SELECT 1 FROM counted_round)."""
    return f"""held AS (
  SELECT s.*, pg_advisory_xact_lock_shared({LOCK_NAMESPACE}, s.{round_column})::text AS held FROM {source} s
), counted_round AS (
  INSERT INTO round_counts (round, shard, collected, fooled, validated, validated_fooled)
  SELECT {round_column}, {_SHARD}, {counts} FROM held
  {_ADD_ON_CONFLICT}
  RETURNING round
)"""


ADD = Query(f"""
WITH {counted_from("(SELECT :round_id::int AS round)", "round", ":collected, :fooled, :validated, :validated_fooled")}
SELECT count(*) AS n FROM counted_round
""")
HOLD_EXCLUSIVELY = Query(f"SELECT pg_advisory_xact_lock({LOCK_NAMESPACE}, :round_id)")
CLEAR = Query("DELETE FROM round_counts WHERE round = :round_id")
# The definition of every counter, from rows (tests/faults/checks.py and bench/load_consistency.py check it).
RECOUNT = Query("""
INSERT INTO round_counts (round, shard, collected, fooled, validated, validated_fooled)
SELECT r.id, 0,
  count(e.id) FILTER (WHERE NOT e.retracted),
  count(e.id) FILTER (WHERE NOT e.retracted AND e.fooled),
  count(e.id) FILTER (WHERE NOT e.retracted AND e.status = 'validated'),
  count(e.id) FILTER (WHERE NOT e.retracted AND e.fooled AND e.status = 'validated')
FROM rounds r LEFT JOIN examples e ON e.round = r.id
  AND NOT EXISTS (SELECT 1 FROM gold_items g WHERE g.example = e.id AND g.hidden)  -- uploaded gold (quality/gold_upload.py)
WHERE r.id = :round_id
GROUP BY r.id
RETURNING collected AS total_collected, fooled AS total_fooled, validated AS total_validated,
  validated_fooled AS total_validated_fooled
""")
IS_HIDDEN_GOLD = Query("SELECT EXISTS (SELECT 1 FROM gold_items WHERE example = :example_id AND hidden) AS hidden")


async def add(round_id: int, difference: RoundCounts) -> None:
    """Call in the transaction that made the difference (after the example's row lock)."""
    if difference:
        await ADD.execute(round_id=round_id, **difference.as_params())


async def hold_exclusively(round_id: int) -> None:
    """Call in a transaction that will recount the round: writers in flight commit first, later ones wait for it."""
    await HOLD_EXCLUSIVELY.execute(round_id=round_id)


async def recount(round_id: int) -> list[dict[str, Any]]:
    """Call in a transaction: the round's counters from rows (one shard); no row for an unknown round."""
    await HOLD_EXCLUSIVELY.execute(round_id=round_id)
    await CLEAR.execute(round_id=round_id)
    return await RECOUNT.rows(round_id=round_id)


async def is_hidden_gold(example_id: int) -> bool:
    return bool(await IS_HIDDEN_GOLD.value(example_id=example_id))
