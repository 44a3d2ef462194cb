"""Badges for creation and validation counts and day streaks, like the original platform. Pure."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from server.core.i18n import trn

CREATION_THRESHOLDS = (50, 100, 200, 500, 1000)
VALIDATION_THRESHOLDS = (50, 100, 200, 500, 1000)
STREAK_THRESHOLDS = (3, 7, 14, 30)


@dataclass(frozen=True)
class Badge:
    name: str  # English, also its identity (a badge is notified once per name); translatable (a Text)
    description: str
    rule: str  # examples | validations | streak
    count: int  # the threshold reached


def describe(rule: str, count: int, task_name: str) -> Badge:
    """A badge's words, from its rule and threshold (an inbox entry rebuilds them so as to say them in the reader's
    language)."""
    if rule == "examples":
        return Badge(
            trn("{count} example", "{count} examples", count=count),
            trn("Wrote {count} example for {task}", "Wrote {count} examples for {task}", count=count, task=task_name),
            rule,
            count,
        )
    if rule == "validations":
        return Badge(
            trn("{count} validation", "{count} validations", count=count),
            trn("Validated {count} example for {task}", "Validated {count} examples for {task}", count=count, task=task_name),
            rule,
            count,
        )
    if rule == "streak":
        return Badge(
            trn("{count}-day streak", "{count}-day streak", count=count),
            trn("Active on {task} {count} day in a row", "Active on {task} {count} days in a row", count=count, task=task_name),
            rule,
            count,
        )
    raise ValueError(f"unknown badge rule {rule!r}")


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
    earned = [describe("examples", n, task_name) for n in CREATION_THRESHOLDS if creations >= n]
    earned += [describe("validations", n, task_name) for n in VALIDATION_THRESHOLDS if validations >= n]
    streak = longest_streak(active_days)
    earned += [describe("streak", n, task_name) for n in STREAK_THRESHOLDS if streak >= n]
    return earned
