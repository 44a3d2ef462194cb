"""Badges for creation and validation counts and day streaks, like the original platform. Pure."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

CREATION_THRESHOLDS = (50, 100, 200, 500, 1000)
VALIDATION_THRESHOLDS = (50, 100, 200, 500, 1000)
STREAK_THRESHOLDS = (3, 7, 14, 30)


@dataclass(frozen=True)
class Badge:
    name: str
    description: str


def longest_streak(days: set[date]) -> int:
    """The longest run of consecutive days with activity."""
    best = 0
    for day in days:
        if day - timedelta(days=1) in days:
            continue  # not the start of a run
        length = 1
        while day + timedelta(days=length) in days:
            length += 1
        best = max(best, length)
    return best


def badges(task_name: str, creations: int, validations: int, active_days: set[date]) -> list[Badge]:
    earned = [Badge(f"{n} examples", f"Wrote {n} examples for {task_name}") for n in CREATION_THRESHOLDS if creations >= n]
    earned += [
        Badge(f"{n} validations", f"Validated {n} examples for {task_name}") for n in VALIDATION_THRESHOLDS if validations >= n
    ]
    streak = longest_streak(active_days)
    earned += [Badge(f"{n}-day streak", f"Active on {task_name} {n} days in a row") for n in STREAK_THRESHOLDS if streak >= n]
    return earned
