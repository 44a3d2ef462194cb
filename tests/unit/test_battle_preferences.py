"""The pure rules of a battle vote's per-side ratings and of going on with the preferred side
(server/annotation/battles/preferences.py, docs/design.md §4.1d)."""

from __future__ import annotations

from server.annotation.battles.preferences import checked_ratings, choice_problem, implied_choice, lowest, preferred_positions
from server.annotation.records import BattleChoice as C
from server.tasks.form_fields import FieldSpec
from server.tasks.generative_config import BattleConfig

RATING = FieldSpec.model_validate({"name": "quality", "type": "rating", "scale": 5})
NUMBER = FieldSpec.model_validate({"name": "score", "type": "number", "min": 0, "max": 10, "step": 0.5})


def test_ratings_are_one_per_side_in_the_fields_range():
    assert checked_ratings(RATING, 2, [2.0, 5]) == ([2.0, 5.0], [])
    assert checked_ratings(NUMBER, 3, [0.5, 10, 0]) == ([0.5, 10.0, 0.0], [])
    assert [p.field for p in checked_ratings(RATING, 2, [2.5, 6])[1]] == ["ratings.0", "ratings.1"]
    assert [p.field for p in checked_ratings(RATING, 2, [3])[1]] == ["ratings"]
    assert [p.field for p in checked_ratings(RATING, 2, None)[1]] == ["ratings"]
    assert [p.field for p in checked_ratings(None, 2, [3, 4])[1]] == ["ratings"]
    assert checked_ratings(None, 2, None) == ([], [])


def test_ratings_alone_imply_the_choice():
    rules = BattleConfig()
    assert implied_choice([2, 5], rules, 1.0) == C.B
    assert implied_choice([4, 3, 1], rules, 1.0) == C.A
    assert implied_choice([3, 3], rules, 1.0) == C.TIE
    assert implied_choice([1, 1], rules, 1.0) == C.BOTH_BAD
    assert implied_choice([1, 1], BattleConfig(allow_both_bad=False), 1.0) == C.TIE
    assert implied_choice([3, 3], BattleConfig(allow_tie=False), 1.0) is None
    assert implied_choice([2, 2, 1], rules, None) == C.TIE  # not every side at the lowest value
    assert lowest(RATING) == 1.0 and lowest(NUMBER) == 0.0


def test_a_side_chosen_may_not_be_rated_below_another():
    assert choice_problem(C.A, [2, 5]) is not None
    assert choice_problem(C.B, [2, 5]) is None
    assert choice_problem(C.A, [5, 5]) is None
    assert choice_problem(C.TIE, [1, 5]) is None
    assert choice_problem(C.A, []) is None


def test_the_preferred_sides():
    assert preferred_positions(C.B, [None, None]) == [1]
    assert preferred_positions(C.TIE, [None, None, None]) == [0, 1, 2]
    assert preferred_positions(C.TIE, [4.0, 2.0, 4.0]) == [0, 2]
    assert preferred_positions(C.BOTH_BAD, [None, None]) == []
