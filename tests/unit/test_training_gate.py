"""The retraining gate's statistics (server/training/gate.py): the held-out split, exact McNemar, the paired
bootstrap interval, the scoring comparison and the decision."""

import random

import pytest
from scipy.stats import binomtest

from server.training import gate


def test_the_split_is_stable_and_about_a_fifth():
    ids = range(1, 20_001)
    held = [i for i in ids if gate.is_held_out(i)]
    assert 0.19 < len(held) / len(ids) < 0.21
    assert held == [i for i in ids if gate.is_held_out(i)]  # the id alone decides
    assert gate.is_held_out(held[0]) and not gate.is_held_out(next(i for i in ids if i not in set(held)))


def test_mcnemar_exact_on_textbook_tables():
    # 10 discordant pairs split 1/9: p = 2 * (C(10,0) + C(10,1)) / 2**10.
    assert gate.mcnemar_exact_p(1, 9) == pytest.approx(2 * 11 / 1024)
    assert gate.mcnemar_exact_p(9, 1) == gate.mcnemar_exact_p(1, 9)
    # Agresti's approval ratings (794, 150, 86, 570): the discordant 150 vs 86.
    assert gate.mcnemar_exact_p(150, 86) == pytest.approx(binomtest(86, 236, 0.5).pvalue, rel=1e-9)
    assert gate.mcnemar_exact_p(0, 0) == 1.0
    assert gate.mcnemar_exact_p(5, 5) == 1.0


def test_all_equal_errors_give_a_zero_interval_and_are_not_better():
    wrong = [True] * 10 + [False] * 40
    result = gate.compare_paired(wrong, wrong, minimum=30)
    assert (result["ci_low"], result["ci_high"], result["difference"]) == (0.0, 0.0, 0.0)
    assert result["mcnemar_p"] == 1.0 and result["enough"] and not result["better"]


def test_the_bootstrap_interval_covers_the_true_difference_and_is_reproducible():
    rng = random.Random(7)
    current = [rng.random() < 0.30 for _ in range(400)]
    new = [c if rng.random() < 0.8 else rng.random() < 0.15 for c in current]
    result = gate.compare_paired(current, new, minimum=30)
    assert result["ci_low"] <= result["difference"] <= result["ci_high"]
    assert result["difference"] == pytest.approx((sum(new) - sum(current)) / 400)
    assert result == gate.compare_paired(current, new, minimum=30)  # fixed seed
    # A clearly better new version: the whole interval below zero, McNemar agrees.
    assert result["better"] and result["ci_high"] < 0 and result["mcnemar_p"] < 0.05
    # Coverage: over many samples of a known true difference, the interval holds it about 95% of the time.
    covered = 0
    for trial in range(200):
        draw = random.Random(trial)
        pairs = [(draw.random() < 0.2, draw.random() < 0.1) for _ in range(300)]  # true difference -0.1
        low, high = gate.bootstrap_interval(
            sum(c and not w for c, w in pairs), sum(w and not c for c, w in pairs), 300, resamples=2000, seed=trial
        )
        covered += low <= -0.1 <= high
    assert 0.90 <= covered / 200 <= 0.99


def test_a_worse_or_barely_better_version_is_not_better():
    current = [False] * 45 + [True] * 5
    assert not gate.compare_paired(current, [True, *current[1:]], minimum=30)["better"]  # worse
    barely = [*current[:45], False, *current[46:]]  # fixes one of five
    result = gate.compare_paired(current, barely, minimum=30)
    assert result["difference"] < 0 and result["ci_high"] >= 0 and not result["better"]


def test_too_few_gate_examples_is_an_honest_not_enough():
    result = gate.compare_paired([True] * 10, [False] * 10, minimum=30)
    assert result["ci_high"] < 0 and not result["enough"] and not result["better"]
    empty = gate.compare_paired([], [], minimum=30)
    assert empty["examples"] == 0 and empty["current_error"] is None and not empty["better"]
    decision = gate.decide(empty, [])
    assert not decision["passed"]
    assert "Not enough held-out examples: 0 in the gate set, at least 30 needed." in decision["summary"]


def test_scoring_comparison_against_the_tolerance():
    rows = gate.compare_scoring({"a": 80.0, "b": 70.0, "only-current": 50.0}, {"a": 79.5, "b": 68.0}, tolerance=0.01)
    assert [r["dataset"] for r in rows] == ["a", "b"]
    assert rows[0]["difference"] == pytest.approx(0.005) and rows[0]["passed"]
    assert rows[1]["difference"] == pytest.approx(0.02) and not rows[1]["passed"]
    assert gate.compare_scoring({"a": 80.0}, {"a": 79.0}, tolerance=0.01)[0]["passed"]  # exactly at the tolerance


def test_the_decision_needs_both_comparisons():
    better = gate.compare_paired([True] * 20 + [False] * 30, [False] * 50, minimum=30)
    assert better["better"]
    ok = gate.compare_scoring({"a": 80.0}, {"a": 80.0}, 0.01)
    worse = gate.compare_scoring({"a": 80.0}, {"a": 70.0}, 0.01)
    assert gate.decide(better, ok)["passed"] and gate.decide(better, [])["passed"]
    rejected = gate.decide(better, worse)
    assert not rejected["passed"] and rejected["summary"].startswith("Rejected by the gate.")
    assert "95% CI" in rejected["summary"] and "a 20.0% → 30.0% (+10.0%, tolerance 1.0%: worse)" in rejected["summary"]
