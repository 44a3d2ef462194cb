"""The owners' quality view of a task (issue #17): `taskQuality(taskCode)`."""

from __future__ import annotations

from datetime import datetime

import strawberry
from strawberry.types import Info

from server import permissions
from server.annotation.quality import view
from server.graphql.core.guard import authorize
from server.graphql.tasks.visibility import owned_task
from server.tasks.service import load_config


@strawberry.type
class ValidatorQuality:
    username: str
    votes: int = strawberry.field(description="Votes cast in the task (user mode).")
    gold_answered: int
    gold_correct: int
    gold_accuracy: float | None = strawberry.field(description="Null before the first gold answer.")
    paused: bool = strawberry.field(
        description="Paused by the task's gold rule (over the gold answers since the latest reinstatement): their "
        "undecided votes do not count."
    )
    reliability: float | None = strawberry.field(
        description="Estimated accuracy (Dawid–Skene over the task's newest votes); null without votes in that window."
    )
    reinstated_at: datetime | None = strawberry.field(description="When an owner last reinstated them in the task.")

    @classmethod
    def of(cls, v: view.ValidatorQuality) -> ValidatorQuality:
        return cls(
            username=v.username,
            votes=v.votes,
            gold_answered=v.gold_answered,
            gold_correct=v.gold_right,
            gold_accuracy=v.gold_accuracy,
            paused=v.paused,
            reliability=v.reliability,
            reinstated_at=v.reinstated_at,
        )


@strawberry.type
class TaskQuality:
    duplicates_refused: int = strawberry.field(description="Submissions refused as near-duplicates (each client UUID once).")
    validators: list[ValidatorQuality]


async def task_quality(info: Info, task_code: str) -> TaskQuality:
    task = await owned_task(info, task_code)
    await authorize(info, permissions.view_task_quality, task["id"])
    quality = await view.task_quality(task["id"], load_config(task))
    return TaskQuality(
        duplicates_refused=quality.duplicates_refused, validators=[ValidatorQuality.of(v) for v in quality.validators]
    )
