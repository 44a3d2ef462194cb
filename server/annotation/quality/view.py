"""The owners' quality view of a task: refused near-duplicates and, per validator, gold accuracy, pause state and
reliability (their expected accuracy in the task's Dawid–Skene fit, quality/reliability.py, whatever the rule).
Accuracy is over all of a validator's gold answers; the pause state over those since their latest reinstatement."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from server.annotation.quality import queries, reliability
from server.annotation.quality.gold import pause_rule
from server.annotation.quality.gold_rules import GoldStats, is_paused
from server.annotation.quality.reliability_model import ReliabilityModel
from server.tasks.config import TaskConfig

MAX_VALIDATORS = 500


@dataclass(frozen=True)
class ValidatorQuality:
    user_id: int
    username: str
    votes: int
    gold_answered: int
    gold_right: int
    paused: bool
    reliability: float | None = None
    reinstated_at: datetime | None = None

    @property
    def gold_accuracy(self) -> float | None:
        return GoldStats(self.gold_answered, self.gold_right).accuracy


@dataclass(frozen=True)
class TaskQuality:
    duplicates_refused: int
    validators: list[ValidatorQuality]


async def task_quality(task_id: int, config: TaskConfig) -> TaskQuality:
    model = await reliability.task_model(task_id)
    validators = [_validator(row, config, model) for row in await queries.validators_of_task(task_id, MAX_VALIDATORS)]
    return TaskQuality(await queries.refusals_of_task(task_id), validators)


async def validator_quality(task_id: int, config: TaskConfig, username: str) -> ValidatorQuality | None:
    """One validator of the task by username; None when no such user validated in the task."""
    rows = await queries.validators_of_task(task_id, 1, username)
    if not rows:
        return None
    return _validator(rows[0], config, await reliability.task_model(task_id))


def _validator(row: dict[str, Any], config: TaskConfig, model: ReliabilityModel) -> ValidatorQuality:
    return ValidatorQuality(
        row["user"],
        row["username"],
        row["votes"],
        row["gold_answered"],
        row["gold_right"],
        is_paused(GoldStats(row["gold_answered_since"], row["gold_right_since"]), pause_rule(config)),
        reliability.validator_reliability(model, row["user"]),
        row["reinstated_at"],
    )
