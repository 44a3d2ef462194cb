"""The numbers people read: per-user stats, leaderboards, agreement. Read-only queries."""

from __future__ import annotations

from dataclasses import dataclass

import krippendorff
import numpy as np

from server.annotation.tables import Example

LABEL_CODES = {"correct": 0, "incorrect": 1, "flagged": 2}

# verified fooled = fooled − fooled-but-rejected (Dynabench's leaderboard definition);
# verified MER = verified fooled / submitted. Retracted examples do not count.
#
# Read from the per-user, per-round counters (user_round_stats: written with every example, vote and
# retraction, and recounted from rows by each aggregation, see validating.RECOUNT_USER), so that a
# leaderboard costs one row per user and round, not one per example: on a million examples the
# count over rows took 0.5–1 s. Users whose every example was retracted and who never voted are left out.
_TOTALS = """
SELECT t.user_id, u.username, t.submitted, t.fooled, t.verified_fooled, t.validations_done
FROM (SELECT s."user" AS user_id, sum(s.submitted - s.retracted)::int AS submitted, sum(s.fooled)::int AS fooled,
        sum(s.fooled - s.fooled_rejected)::int AS verified_fooled, sum(s.validations_done)::int AS validations_done
      FROM user_round_stats s JOIN rounds r ON r.id = s.round
      WHERE r.task = {} AND ({}::int IS NULL OR r.number = {}::int) %s
      GROUP BY s."user") t
JOIN users u ON u.id = t.user_id
WHERE t.submitted > 0 OR t.validations_done > 0
"""
# The ranking of `rank()` below, in SQL, so that only the first rows leave the database.
USER_LEADERBOARD = _TOTALS % "" + """ORDER BY t.verified_fooled DESC, coalesce(t.verified_fooled::float8 / nullif(t.submitted, 0), 0) DESC,
  t.validations_done DESC, u.username
LIMIT {}
"""
USER_STATS = _TOTALS % 'AND s."user" = {}'
ACTIVE_DAYS = (
    "SELECT DISTINCT (e.created_at AT TIME ZONE 'UTC')::date AS day FROM examples e JOIN rounds r ON r.id = e.round "
    'WHERE r.task = {} AND e."user" = {} '
    "UNION SELECT DISTINCT (v.created_at AT TIME ZONE 'UTC')::date FROM validations v JOIN examples e ON e.id = v.example "
    'JOIN rounds r ON r.id = e.round WHERE r.task = {} AND v."user" = {}'
)
# Krippendorff's alpha (nominal) of a round over its user-mode votes, kept as the round's coincidence
# matrix (3×3, row-major over LABEL_CODES) and its number of pairable units (examples with ≥ 2 such
# votes): alpha then costs one row read instead of every vote of the round (0.45 s at 1M examples).
# The aggregation job adds each example's change (validating.aggregate: its contribution with all
# its votes minus its contribution with the votes already aggregated), so the stored sums always
# equal this recount over aggregated votes, which fills the table from rows (migration, seeding,
# checks).
AGREEMENT_FROM_ROWS = """
SELECT round, count(*)::int AS units,
  ARRAY[sum((c * c - c)::float8 / (m - 1)), sum((c * i)::float8 / (m - 1)), sum((c * f)::float8 / (m - 1)),
        sum((i * c)::float8 / (m - 1)), sum((i * i - i)::float8 / (m - 1)), sum((i * f)::float8 / (m - 1)),
        sum((f * c)::float8 / (m - 1)), sum((f * i)::float8 / (m - 1)), sum((f * f - f)::float8 / (m - 1))] AS coincidences
FROM (SELECT e.round, count(*) FILTER (WHERE v.label = 'correct') AS c, count(*) FILTER (WHERE v.label = 'incorrect') AS i,
             count(*) FILTER (WHERE v.label = 'flagged') AS f, count(*) AS m
      FROM validations v JOIN examples e ON e.id = v.example
      WHERE e.round = ANY({}::int[]) AND v.mode = 'user' AND v.aggregated GROUP BY e.round, v.example) units
WHERE m >= 2
GROUP BY round
"""
AGREEMENT_RECOUNT = f"""
INSERT INTO round_agreement (round, units, coincidences) {AGREEMENT_FROM_ROWS}
ON CONFLICT (round) DO UPDATE SET units = EXCLUDED.units, coincidences = EXCLUDED.coincidences
"""
AGREEMENT_ADD = """
INSERT INTO round_agreement (round, units, coincidences) VALUES ({}, {}, {}::float8[])
ON CONFLICT (round) DO UPDATE SET units = round_agreement.units + EXCLUDED.units,
  coincidences = ARRAY(SELECT a + b FROM unnest(round_agreement.coincidences, EXCLUDED.coincidences)
                       WITH ORDINALITY AS t(a, b, n) ORDER BY n)
"""
AGREEMENT = "SELECT units, coincidences FROM round_agreement WHERE round = {}"

@dataclass
class UserStats:
    user_id: int
    username: str
    submitted: int = 0
    fooled: int = 0
    verified_fooled: int = 0
    validations_done: int = 0

    @property
    def verified_mer(self) -> float | None:
        return self.verified_fooled / self.submitted if self.submitted else None


async def leaderboard(task_id: int, round_number: int | None, first: int) -> list[UserStats]:
    """The first `first` users of a task (or of one round of it), best first (see `rank`)."""
    rows = await Example.raw(USER_LEADERBOARD, task_id, round_number, round_number, first)
    return [UserStats(**r) for r in rows]


async def user_stats(task_id: int, round_number: int | None, user_id: int) -> UserStats | None:
    rows = await Example.raw(USER_STATS, task_id, round_number, round_number, user_id)
    return UserStats(**rows[0]) if rows else None


def rank(stats: list[UserStats]) -> list[UserStats]:
    """The order of USER_LEADERBOARD, for lists computed elsewhere (e.g. a recount from rows in a test)."""
    return sorted(stats, key=lambda s: (-s.verified_fooled, -(s.verified_mer or 0), -s.validations_done, s.username))


async def active_days(task_id: int, user_id: int) -> set:
    rows = await Example.raw(ACTIVE_DAYS, task_id, user_id, task_id, user_id)
    return {row["day"] for row in rows}


def unit_coincidences(labels: list[str]) -> tuple[int, list[float]]:
    """One example's share of its round's coincidence matrix, from its user-mode vote labels."""
    counts = [0, 0, 0]
    for label in labels:
        counts[LABEL_CODES[label]] += 1
    m = len(labels)
    if m < 2:
        return 0, [0.0] * 9
    return 1, [(counts[c] * counts[k] - (counts[c] if c == k else 0)) / (m - 1) for c in range(3) for k in range(3)]


def alpha(units: int, coincidences: list[float]) -> float | None:
    """Krippendorff's alpha (nominal) from a coincidence matrix; None while undefined (fewer than two
    pairable units, or a single label used), as krippendorff.alpha's callers here always treated it."""
    totals = [sum(coincidences[3 * c : 3 * c + 3]) for c in range(3)]
    n = sum(totals)
    expected = sum(totals[c] * totals[k] for c in range(3) for k in range(3) if c != k)
    if units < 2 or sum(1 for t in totals if t > 1e-9) < 2 or expected <= 0:
        return None
    observed = sum(coincidences[3 * c + k] for c in range(3) for k in range(3) if c != k)
    return 1.0 - (n - 1) * observed / expected


async def round_agreement(round_id: int) -> float | None:
    """Krippendorff's alpha (nominal) over user-mode validation labels of the round's examples."""
    rows = await Example.raw(AGREEMENT, round_id)
    return alpha(rows[0]["units"], list(rows[0]["coincidences"])) if rows else None


async def add_to_agreement(round_id: int, before: list[str], after: list[str]) -> None:
    """In the aggregation's transaction (which holds the round's lock): an example's labels went from
    `before` (already counted) to `after`."""
    old_units, old = unit_coincidences(before)
    new_units, new = unit_coincidences(after)
    delta = [b - a for a, b in zip(old, new)]
    if new_units != old_units or any(delta):
        await Example.raw(AGREEMENT_ADD, round_id, new_units - old_units, delta)


def reference_alpha(value_counts: list[list[int]]) -> float | None:
    """The krippendorff package's alpha over per-example label counts (for checks against the stored one)."""
    counts = np.array([c for c in value_counts if sum(c) >= 2], dtype=float)
    if len(counts) < 2 or len(np.nonzero(counts.sum(axis=0))[0]) < 2:
        return None
    return float(krippendorff.alpha(value_counts=counts, level_of_measurement="nominal"))
