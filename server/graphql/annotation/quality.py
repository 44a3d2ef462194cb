"""The owners' quality view of a task (issue #17): `taskQuality(taskCode)`."""

from __future__ import annotations

from datetime import datetime

import strawberry
from strawberry.types import Info

from server import permissions
from server.annotation.battles import leaderboard as battle_leaderboard
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


@strawberry.type(
    description="A battle voter's quality (docs/design.md §4.3a): whether their picks depend on the answers, and their "
    "check answers (check battles, §4.1d)."
)
class BattleVoterQuality:
    username: str
    votes: int = strawberry.field(description="Battle votes cast in the task (check battles not included).")
    decisive: int = strawberry.field(description="Votes that picked a side (not a tie or both bad).")
    favourite: str | None = strawberry.field(description="The side (A–D) they picked most; null without a pick.")
    favourite_share: float | None
    p_value: float | None = strawberry.field(
        description="One-sided binomial test of the favourite's count against chance; null below 10 picks."
    )
    flagged: bool = strawberry.field(description="Their choices do not depend on the answers: not counted in ratings.")
    checks_answered: int = strawberry.field(description="Votes on check battles (both bad is no answer).")
    checks_right: int = strawberry.field(description="Check answers that preferred a real reply to the check reply.")
    check_accuracy: float | None = strawberry.field(description="Null before the first check answer.")
    paused: bool = strawberry.field(
        description="Paused by the check rule (answers since their latest reinstatement): their votes are not counted "
        "and they start no battle until an owner reinstates them (reinstateBattleVoter)."
    )

    @classmethod
    def of(cls, quality: battle_leaderboard.VoterQuality) -> BattleVoterQuality:
        check = quality.positions
        return cls(
            username=quality.username,
            votes=check.votes,
            decisive=check.decisive,
            favourite=None if check.favourite is None else "ABCD"[check.favourite],
            favourite_share=check.favourite_share,
            p_value=check.p_value,
            flagged=check.flagged,
            checks_answered=quality.checks_answered,
            checks_right=quality.checks_right,
            check_accuracy=quality.checks_right / quality.checks_answered if quality.checks_answered else None,
            paused=quality.paused,
        )


@strawberry.type
class TaskQuality:
    duplicates_refused: int = strawberry.field(description="Submissions refused as near-duplicates (each client UUID once).")
    validators: list[ValidatorQuality]
    battle_voters: list[BattleVoterQuality] = strawberry.field(
        description="Battle voters, flagged or paused first, then by votes (empty for a task without battles)."
    )


async def task_quality(info: Info, task_code: str) -> TaskQuality:
    task = await owned_task(info, task_code)
    await authorize(info, permissions.view_task_quality, task["id"])
    config = load_config(task)
    quality = await view.task_quality(task["id"], config)
    voters = await battle_leaderboard.voter_quality(task["id"], config.generative.battle if config.generative else None)
    return TaskQuality(
        duplicates_refused=quality.duplicates_refused,
        validators=[ValidatorQuality.of(v) for v in quality.validators],
        battle_voters=[BattleVoterQuality.of(v) for v in voters],
    )
