"""Check battles (gold; docs/design.md §4.1d): at the task's `generative.battle.checks.rate` one side of a new battle is
not a model but one of the owner's check replies (written to answer no prompt), at a random position, so any reader
prefers a real side to it. A vote for a real side is a right check answer; a vote for the check side, or a tie, a wrong
one; "both bad" is no answer (the real reply may be bad too). The validators' gold pause rule
(server/annotation/quality/gold_rules.py) then applies to voters over their check answers since their latest
reinstatement: a paused voter's votes leave the ratings and they start no battle until an owner reinstates them.
Pure, no I/O."""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass

from server.annotation.battles.rules import position_of
from server.annotation.quality.gold_rules import GoldAnswer, GoldStats, PauseRule, gold_stats, is_paused
from server.annotation.records import BattleChoice
from server.tasks.generative_config import BattleChecks

# A check side's target: no model answers it (its reply is stored as the battle starts), and it names none.
CHECK_TARGET = {"name": "", "version": "", "check": True}
RIGHT, WRONG = "real", "check"


@dataclass(frozen=True)
class CheckPlan:
    position: int  # the check side's place (0 = A)
    reply: str


def plan_check(checks: BattleChecks | None, sides: int, rng: random.Random) -> CheckPlan | None:
    """Whether the next battle is a check (one draw at `rate`), and then where its check side goes and what it says."""
    if checks is None or rng.random() >= checks.rate:
        return None
    return CheckPlan(rng.randrange(sides), rng.choice(checks.replies))


def check_answer(choice: BattleChoice, check_position: int) -> GoldAnswer | None:
    """A vote on a check battle as a gold answer (right: a real side), None for "both bad"."""
    if choice == BattleChoice.BOTH_BAD:
        return None
    picked = position_of(choice)
    return GoldAnswer(RIGHT, RIGHT if picked is not None and picked != check_position else WRONG)


def check_stats(votes: Iterable[tuple[BattleChoice, int]]) -> GoldStats:
    """The gold stats of (choice, check position) votes."""
    answers = [answer for choice, position in votes if (answer := check_answer(choice, position)) is not None]
    return gold_stats(answers)


def paused(stats: GoldStats, checks: BattleChecks | None) -> bool:
    return checks is not None and is_paused(stats, PauseRule(checks.threshold, checks.min_answers))
