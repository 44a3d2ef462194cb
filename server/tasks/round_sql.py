"""Part of the tasks domain's query room (queries.py): the SQL of a round row with its counters."""

from __future__ import annotations

# A round row as the API reads it: its columns and its counters, summed over their shards (round_counts; written by
# the annotation domain: server/annotation/round_counts.py). `r` is the rounds row (a table or a CTE's rows).
ROUND_TOTALS = """r.*, coalesce(n.collected, 0)::int AS total_collected, coalesce(n.fooled, 0)::int AS total_fooled,
  coalesce(n.validated, 0)::int AS total_validated, coalesce(n.validated_fooled, 0)::int AS total_validated_fooled"""
ROUND_COUNTS = """CROSS JOIN LATERAL (
  SELECT sum(collected) AS collected, sum(fooled) AS fooled, sum(validated) AS validated,
         sum(validated_fooled) AS validated_fooled
    FROM round_counts WHERE round = r.id) n"""


def rounds_where(condition: str) -> str:
    return f"SELECT {ROUND_TOTALS} FROM rounds r {ROUND_COUNTS} WHERE {condition}"


def with_totals(statement: str) -> str:
    """A statement that returns rounds rows (RETURNING *), returning them with their counters."""
    return f"WITH r AS ({statement}) SELECT {ROUND_TOTALS} FROM r {ROUND_COUNTS}"
