"""The numbers people read: per-user stats, leaderboards, agreement (statements in validation/queries.py)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import krippendorff
import numpy as np

from server.annotation.records import ValidationLabel
from server.annotation.validation import queries

LABEL_CODES: dict[str, int] = {ValidationLabel.CORRECT: 0, ValidationLabel.INCORRECT: 1, ValidationLabel.FLAGGED: 2}


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
    return [UserStats(**r) for r in await queries.leaderboard_rows(task_id, round_number, first)]


async def user_stats(task_id: int, round_number: int | None, user_id: int) -> UserStats | None:
    row = await queries.user_stats_row(task_id, round_number, user_id)
    return UserStats(**row) if row else None


def rank(stats: list[UserStats]) -> list[UserStats]:
    """The order of queries.USER_LEADERBOARD, for lists computed elsewhere (e.g. a recount from rows in a test)."""
    return sorted(stats, key=lambda s: (-s.verified_fooled, -(s.verified_mer or 0), -s.validations_done, s.username))


async def active_days(task_id: int, user_id: int) -> set:
    return {row["day"] for row in await queries.active_days(task_id, user_id)}


async def recent_active_days(task_id: int, user_id: int, since: datetime) -> set:
    return {row["day"] for row in await queries.recent_active_days(task_id, user_id, since)}


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
    row = await queries.agreement(round_id)
    return alpha(row["units"], list(row["coincidences"])) if row else None


async def add_to_agreement(round_id: int, before: list[str], after: list[str]) -> None:
    """In the aggregation's transaction (which holds the example's lock): an example's labels went from
    `before` (already counted) to `after`."""
    old_units, old = unit_coincidences(before)
    new_units, new = unit_coincidences(after)
    delta = [b - a for a, b in zip(old, new)]
    if new_units != old_units or any(delta):
        await queries.add_to_agreement(round_id, new_units - old_units, delta)


def reference_alpha(value_counts: list[list[int]]) -> float | None:
    """The krippendorff package's alpha over per-example label counts (for checks against the stored one)."""
    counts = np.array([c for c in value_counts if sum(c) >= 2], dtype=float)
    if len(counts) < 2 or len(np.nonzero(counts.sum(axis=0))[0]) < 2:
        return None
    return float(krippendorff.alpha(value_counts=counts, level_of_measurement="nominal"))
