"""Gold mixing, gold accuracy and the pause rule (server/annotation/quality/gold_rules.py)."""

import random

import pytest

from server.annotation.quality.gold_rules import (
    GoldAnswer,
    GoldStats,
    PauseRule,
    check_rate,
    gold_stats,
    is_paused,
    next_is_gold,
    pick_gold,
)
from server.core.errors import ConfigError


def test_mixing_is_deterministic_for_a_seed_and_close_to_the_rate():
    draws = [next_is_gold(random.Random(7), 0.2) for _ in range(3)]
    assert draws == [next_is_gold(random.Random(7), 0.2)] * 3
    rng = random.Random(1)
    share = sum(next_is_gold(rng, 0.2) for _ in range(20_000)) / 20_000
    assert 0.18 < share < 0.22
    rng_a, rng_b = random.Random(3), random.Random(3)
    assert [next_is_gold(rng_a, 0.3) for _ in range(50)] == [next_is_gold(rng_b, 0.3) for _ in range(50)]


def test_rates_zero_and_one_never_and_always():
    rng = random.Random(0)
    assert not any(next_is_gold(rng, 0.0) for _ in range(1000))
    assert all(next_is_gold(rng, 1.0) for _ in range(1000))


@pytest.mark.parametrize("rate", [-0.1, 1.01, float("nan"), True, "0.5"])
def test_bad_rates_are_config_errors(rate):
    with pytest.raises(ConfigError):
        check_rate(rate)


def test_pick_gold_avoids_answered_items_and_runs_out():
    rng = random.Random(5)
    picks = {pick_gold(rng, [1, 2, 3], {2}) for _ in range(200)}
    assert picks == {1, 3}
    assert pick_gold(rng, [1, 2], {1, 2}) is None
    assert pick_gold(rng, [], set()) is None
    assert pick_gold(random.Random(9), [4, 5, 6], set()) == pick_gold(random.Random(9), [4, 5, 6], set())


def test_gold_accuracy():
    answers = [
        GoldAnswer("correct", "correct"),
        GoldAnswer("incorrect", "correct"),
        GoldAnswer("incorrect", "flagged"),
        GoldAnswer("flagged", "flagged"),
    ]
    stats = gold_stats(answers)
    assert stats == GoldStats(answered=4, right=2) and stats.accuracy == 0.5
    assert gold_stats([]).accuracy is None


def test_pause_needs_the_minimum_number_of_answers_first():
    rule = PauseRule(threshold=0.8, min_answers=5)
    assert not is_paused(GoldStats(4, 0), rule)
    assert is_paused(GoldStats(5, 3), rule)


def test_pause_threshold_is_strict_and_exact():
    rule = PauseRule(threshold=0.8, min_answers=5)
    assert not is_paused(GoldStats(5, 4), rule)  # exactly 0.8 stays
    assert is_paused(GoldStats(10, 7), rule)
    assert not is_paused(GoldStats(10, 8), rule)
    third = PauseRule(threshold=0.7, min_answers=1)
    assert not is_paused(GoldStats(10, 7), third)  # 7/10 is not below 0.7 in floating point either
    assert not is_paused(GoldStats(1, 0), PauseRule(threshold=0.0, min_answers=1))
    assert is_paused(GoldStats(100, 99), PauseRule(threshold=1.0, min_answers=1))


@pytest.mark.parametrize(
    "threshold, min_answers, field",
    [(1.5, 5, "gold.threshold"), (-0.1, 5, "gold.threshold"), (0.5, 0, "gold.minAnswers"), (0.5, 1001, "gold.minAnswers")],
)
def test_bad_pause_rules_are_config_errors(threshold, min_answers, field):
    with pytest.raises(ConfigError) as error:
        PauseRule(threshold, min_answers)
    assert error.value.field == field
