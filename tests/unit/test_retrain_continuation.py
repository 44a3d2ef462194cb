"""The retraining recipe's pure parts (server/modelbuild/continuation.py, docs/design.md §4.8): the development split,
the step schedule, the class weights, the checkpoint choice and early stopping."""

from __future__ import annotations

import pytest

from server.modelbuild.continuation import (
    CONTINUE_PROFILES,
    DEV_MIN,
    DEV_SHARE,
    ContinueConfig,
    EarlyStop,
    capped_size,
    class_weights,
    dev_fraction,
    eval_every,
    in_dev_split,
    planned_steps,
    recipe_name,
    selection_score,
    split_dev,
)
from server.training.gate import is_held_out


def _rows(ids):
    return [{"statement": f"text {i}", "label": "positive", "example_id": i} for i in ids]


def test_the_development_split_is_stable_and_about_its_share():
    rows = _rows(range(1, 5001))
    train, dev = split_dev(rows)
    assert len(train) + len(dev) == 5000 and not {r["example_id"] for r in train} & {r["example_id"] for r in dev}
    assert abs(len(dev) / 5000 - DEV_SHARE) < 0.02
    assert [r["example_id"] for r in dev] == [i for i in range(1, 5001) if in_dev_split(i)]
    _, again_dev = split_dev(list(reversed(rows)))  # the id alone decides, not the order or the company
    assert sorted(r["example_id"] for r in again_dev) == sorted(r["example_id"] for r in dev)
    assert split_dev(rows[:1000])[1] == [r for r in dev if r["example_id"] <= 1000]


def test_the_development_split_is_independent_of_the_gate():
    ids = range(1, 20001)
    both = sum(1 for i in ids if is_held_out(i) and in_dev_split(i))
    gate = sum(1 for i in ids if is_held_out(i))
    # Different salts: among the gate's examples the dev share is the dev share, not 0 or 1.
    assert abs(both / gate - DEV_SHARE) < 0.03


def test_too_small_a_split_is_not_made():
    few = _rows(range(1, 40))
    assert sum(in_dev_split(i) for i in range(1, 40)) < DEV_MIN
    assert split_dev(few) == (few, [])
    assert split_dev([]) == ([], [])


def test_rows_without_an_id_split_by_their_content():
    rows = [{"statement": f"sentence {i}", "label": "neutral"} for i in range(400)]
    train, dev = split_dev(rows)
    assert dev and len(train) + len(dev) == 400
    assert split_dev([dict(r) for r in rows]) == (train, dev)
    assert 0 <= dev_fraction("anything") < 1


def test_steps_scale_with_the_validated_examples_within_the_profile_bounds():
    cfg = ContinueConfig(epochs=5, min_steps=40, max_steps=240, lr_factor=0.5, head_lr=3e-4, evals=8, patience=3, seed_dev=150)
    assert planned_steps(0, 0.3, 16, cfg) == 40
    assert planned_steps(10, 0.3, 16, cfg) == 40  # 5 · 10 / 4.8 = 11 steps: the floor
    assert planned_steps(100, 0.3, 16, cfg) == 105  # 5 · 100 / 4.8 = 104.2
    assert planned_steps(200, 0.3, 16, cfg) == 209
    assert planned_steps(10_000, 0.3, 16, cfg) == 240  # the ceiling
    assert planned_steps(100, 0.5, 16, cfg) == 63  # a larger share: fewer steps for the same passes
    full = CONTINUE_PROFILES["full"]
    assert full.min_steps <= planned_steps(775, 0.3, 32, full) <= full.max_steps


def test_evaluations_are_spread_over_the_planned_steps():
    assert eval_every(240, 8) == 30
    assert eval_every(105, 8) == 14
    assert eval_every(3, 8) == 1
    assert eval_every(10, 0) == 10


def test_capped_size_applies_the_per_label_cap():
    labels = ["a"] * 5 + ["b"] * 2 + ["c"]
    assert capped_size(labels, None) == 8
    assert capped_size(labels, 2) == 5
    assert capped_size(iter(labels), 1) == 3


def test_class_weights_balance_the_validated_labels_and_keep_their_mean():
    labels = ["positive"] * 50 + ["negative"] * 30 + ["neutral"] * 20
    weights = class_weights(labels, cap=3.0)
    assert set(weights) == {"positive", "negative", "neutral"}
    assert weights["neutral"] > weights["negative"] > weights["positive"]
    mean = sum(weights[label] for label in labels) / len(labels)
    assert mean == pytest.approx(1.0, abs=1e-3)
    # Contributions per label are equal when no weight is clipped.
    assert weights["positive"] * 50 == pytest.approx(weights["negative"] * 30, rel=1e-3)
    assert weights["negative"] * 30 == pytest.approx(weights["neutral"] * 20, rel=1e-3)


def test_class_weights_are_clipped_and_trivial_when_balanced():
    skewed = class_weights(["a"] * 99 + ["b"], cap=3.0)
    # "b" alone would be weighted 100 / 2 = 50: clipped to 3 (then both scaled by the same factor).
    assert skewed["b"] / skewed["a"] == pytest.approx(3.0 / (100 / (2 * 99)), rel=1e-3)
    assert 99 * skewed["a"] + skewed["b"] == pytest.approx(100, abs=0.01)
    assert class_weights(["a", "b", "a", "b"], cap=3.0) == {"a": 1.0, "b": 1.0}
    assert class_weights([], cap=3.0) == {}
    assert class_weights(["a"] * 5, cap=3.0) == {"a": 1.0}


def test_the_selection_score_is_the_mean_of_what_was_measured():
    assert selection_score(0.6, 0.8) == pytest.approx(0.7)
    assert selection_score(None, 0.8) == 0.8
    assert selection_score(0.5, None) == 0.5
    assert selection_score(None, None) == 0.0


def test_early_stopping_keeps_the_best_step_and_stops_after_patience():
    early = EarlyStop(patience=2)
    assert not early.stop
    assert early.observe(30, 0.70) and early.best_step == 30
    assert early.observe(60, 0.72) and early.best_step == 60
    assert not early.observe(90, 0.72)  # a tie keeps the earlier step
    assert not early.stop
    assert not early.observe(120, 0.71)
    assert early.stop and early.best_step == 60 and early.best_score == 0.72
    later = EarlyStop(patience=2)
    later.observe(10, 0.5)
    later.observe(20, 0.4)
    assert later.observe(30, 0.6) and not later.stop  # an improvement resets the count


def test_the_recipe_name_comes_from_the_environment_value():
    assert recipe_name(None) == recipe_name("") == "continue"
    assert recipe_name(" Scratch ") == "scratch"
    with pytest.raises(ValueError, match="DYNABENCH_RETRAIN_RECIPE"):
        recipe_name("warm")
