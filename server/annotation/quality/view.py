"""The owners' quality view of a task: refused near-duplicates and, per validator, gold accuracy, pause state and
reliability (their expected accuracy in the task's Dawid–Skene fit, quality/reliability.py, whatever the rule)."""

from __future__ import annotations

from dataclasses import dataclass

from server.annotation.quality import queries, reliability
from server.annotation.quality.gold import pause_rule
from server.crowd.gold import GoldStats, is_paused
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

    @property
    def gold_accuracy(self) -> float | None:
        return GoldStats(self.gold_answered, self.gold_right).accuracy


@dataclass(frozen=True)
class TaskQuality:
    duplicates_refused: int
    validators: list[ValidatorQuality]


async def task_quality(task_id: int, config: TaskConfig) -> TaskQuality:
    rule = pause_rule(config)
    model = await reliability.task_model(task_id)
    validators = [
        ValidatorQuality(
            row["user"],
            row["username"],
            row["votes"],
            row["gold_answered"],
            row["gold_right"],
            is_paused(GoldStats(row["gold_answered"], row["gold_right"]), rule),
            reliability.validator_reliability(model, row["user"]),
        )
        for row in await queries.validators_of_task(task_id, MAX_VALIDATORS)
    ]
    return TaskQuality(await queries.refusals_of_task(task_id), validators)
