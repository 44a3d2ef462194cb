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
AGREEMENT_VOTES = (
    "SELECT v.example, v.label, count(*) AS n FROM validations v JOIN examples e ON e.id = v.example "
    "WHERE e.round = {} AND v.mode = 'user' GROUP BY v.example, v.label"
)


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


async def round_agreement(round_id: int) -> float | None:
    """Krippendorff's alpha (nominal) over user-mode validation labels of the round's examples."""
    rows = await Example.raw(AGREEMENT_VOTES, round_id)
    units: dict[int, list[int]] = {}
    for row in rows:
        units.setdefault(row["example"], [0, 0, 0])[LABEL_CODES[row["label"]]] += row["n"]
    counts = np.array([c for c in units.values() if sum(c) >= 2], dtype=float)
    if len(counts) < 2 or len(np.nonzero(counts.sum(axis=0))[0]) < 2:
        return None  # alpha is undefined with fewer than two pairable units or a single label used
    return float(krippendorff.alpha(value_counts=counts, level_of_measurement="nominal"))
