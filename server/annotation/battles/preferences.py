"""The pure rules of what a battle's vote says about each side (docs/design.md §4.1d): the per-side ratings on the task's
form (`generative.battle.rating_field`), the choice they imply when the author gives ratings only, and which sides the
author may go on talking to after the vote. No I/O."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from server.annotation.records import BattleChoice
from server.core.errors import FieldProblem
from server.core.i18n import tr
from server.tasks.form_fields import FieldSpec
from server.tasks.form_values import check_value
from server.tasks.generative_config import BattleConfig

SIDE_CHOICES = (BattleChoice.A, BattleChoice.B, BattleChoice.C, BattleChoice.D)


def checked_ratings(spec: FieldSpec | None, sides: int, ratings: Sequence[Any] | None) -> tuple[list[float], list[FieldProblem]]:
    """The ratings to store (one per side, in side order) and what is wrong with them. A task with a rating field asks
    every side's rating; one without takes none."""
    if spec is None:
        return [], [] if ratings is None else [FieldProblem("ratings", tr("this task does not rate each side"))]
    if ratings is None or len(ratings) != sides:
        return [], [FieldProblem("ratings", tr("must give one rating per side ({count})", count=sides))]
    stored: list[float] = []
    problems: list[FieldProblem] = []
    for i, value in enumerate(ratings):
        # GraphQL's Float carries a whole rating as 4.0; the form's rating type wants a whole number.
        whole = int(value) if isinstance(value, float) and value.is_integer() else value
        checked, problem = check_value(spec, whole, {})
        if problem is not None:
            problems.append(FieldProblem(f"ratings.{i}", problem))
        else:
            stored.append(float(checked))
    return stored, problems


def lowest(spec: FieldSpec) -> float | None:
    """The field's lowest value (1 on a rating scale, a number field's minimum), if it has one."""
    if spec.type == "rating":
        return 1.0
    return None if spec.min is None else float(spec.min)


def implied_choice(ratings: Sequence[float], rules: BattleConfig, floor: float | None) -> BattleChoice | None:
    """The choice ratings alone say (higher is better): the one side rated highest; when several share the highest
    rating, both bad if every side has the field's lowest value (and the task allows both bad), else a tie (if it
    allows ties); None when the ratings cannot say (the author must choose)."""
    best = max(ratings)
    top = [i for i, r in enumerate(ratings) if r == best]
    if len(top) == 1:
        return SIDE_CHOICES[top[0]]
    if rules.allow_both_bad and floor is not None and len(top) == len(ratings) and best == floor:
        return BattleChoice.BOTH_BAD
    return BattleChoice.TIE if rules.allow_tie else None


def choice_problem(choice: BattleChoice, ratings: Sequence[float]) -> FieldProblem | None:
    """A side chosen while another side is rated higher contradicts itself; a tie or both bad goes with any ratings."""
    if not ratings or choice not in SIDE_CHOICES:
        return None
    if ratings[SIDE_CHOICES.index(choice)] < max(ratings):
        return FieldProblem("choice", tr("the side you chose is rated below another side"))
    return None


def preferred_positions(choice: BattleChoice, ratings: Sequence[float | None]) -> list[int]:
    """The sides the author may go on talking to after the vote: the side they chose; after a tie, any tied side (the
    highest rated ones when the sides were rated); after both bad, none (the author judged every reply bad: a new
    chat is the way on)."""
    if choice in SIDE_CHOICES:
        return [SIDE_CHOICES.index(choice)]
    if choice == BattleChoice.BOTH_BAD:
        return []
    rated = [r for r in ratings if r is not None]
    if len(rated) != len(ratings) or not rated:
        return list(range(len(ratings)))
    return [i for i, r in enumerate(rated) if r == max(rated)]
