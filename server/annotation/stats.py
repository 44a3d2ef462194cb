"""The numbers people read: per-user stats, leaderboards, agreement. Read-only queries."""

from __future__ import annotations

from dataclasses import dataclass

import krippendorff
import numpy as np

from server.annotation.tables import Example

LABEL_CODES = {"correct": 0, "incorrect": 1, "flagged": 2}

# verified fooled = fooled − fooled-but-rejected (Dynabench's leaderboard definition);
# verified MER = verified fooled / submitted. Retracted examples do not count.
USER_STATS = """
SELECT e."user" AS user_id, u.username,
  count(*) AS submitted,
  count(*) FILTER (WHERE e.fooled) AS fooled,
  count(*) FILTER (WHERE e.fooled AND e.status <> 'rejected') AS verified_fooled,
  count(*) FILTER (WHERE e.fooled AND e.status = 'validated') AS validated_fooled
FROM examples e JOIN rounds r ON r.id = e.round JOIN users u ON u.id = e."user"
WHERE r.task = {} AND ({}::int IS NULL OR r.number = {}::int) AND NOT e.retracted AND ({}::int IS NULL OR e."user" = {}::int)
GROUP BY e."user", u.username
"""
VALIDATIONS_DONE = """
SELECT v."user" AS user_id, count(*) AS n FROM validations v
JOIN examples e ON e.id = v.example JOIN rounds r ON r.id = e.round
WHERE r.task = {} AND ({}::int IS NULL OR r.number = {}::int) AND ({}::int IS NULL OR v."user" = {}::int)
GROUP BY v."user"
"""


@dataclass
class UserStats:
    user_id: int
    username: str
    submitted: int = 0
    fooled: int = 0
    verified_fooled: int = 0
    validated_fooled: int = 0
    validations_done: int = 0

    @property
    def verified_mer(self) -> float | None:
        return self.verified_fooled / self.submitted if self.submitted else None


async def user_stats(task_id: int, round_number: int | None, user_id: int | None = None) -> list[UserStats]:
    rows = await Example.raw(USER_STATS, task_id, round_number, round_number, user_id, user_id)
    stats = {r["user_id"]: UserStats(**r) for r in rows}
    for row in await Example.raw(VALIDATIONS_DONE, task_id, round_number, round_number, user_id, user_id):
        if row["user_id"] not in stats:
            name = await Example.raw("SELECT username FROM users WHERE id = {}", row["user_id"])
            stats[row["user_id"]] = UserStats(row["user_id"], name[0]["username"])
        stats[row["user_id"]].validations_done = row["n"]
    return list(stats.values())


def rank(stats: list[UserStats]) -> list[UserStats]:
    return sorted(stats, key=lambda s: (-s.verified_fooled, -(s.verified_mer or 0), -s.validations_done, s.username))


async def active_days(task_id: int, user_id: int) -> set:
    rows = await Example.raw(
        'SELECT DISTINCT (e.created_at AT TIME ZONE \'UTC\')::date AS day FROM examples e JOIN rounds r ON r.id = e.round '
        'WHERE r.task = {} AND e."user" = {} '
        'UNION SELECT DISTINCT (v.created_at AT TIME ZONE \'UTC\')::date FROM validations v JOIN examples e ON e.id = v.example '
        'JOIN rounds r ON r.id = e.round WHERE r.task = {} AND v."user" = {}',
        task_id, user_id, task_id, user_id,
    )
    return {row["day"] for row in rows}


async def round_agreement(round_id: int) -> float | None:
    """Krippendorff's alpha (nominal) over user-mode validation labels of the round's examples."""
    rows = await Example.raw(
        "SELECT v.example, v.label, count(*) AS n FROM validations v JOIN examples e ON e.id = v.example "
        "WHERE e.round = {} AND v.mode = 'user' GROUP BY v.example, v.label",
        round_id,
    )
    units: dict[int, list[int]] = {}
    for row in rows:
        units.setdefault(row["example"], [0, 0, 0])[LABEL_CODES[row["label"]]] += row["n"]
    counts = np.array([c for c in units.values() if sum(c) >= 2], dtype=float)
    if len(counts) < 2 or len(np.nonzero(counts.sum(axis=0))[0]) < 2:
        return None  # alpha is undefined with fewer than two pairable units or a single label used
    return float(krippendorff.alpha(value_counts=counts, level_of_measurement="nominal"))
