"""The resolved Dynascore (the leaderboard's default): differences below a metric's measurement resolution are ties
and cannot dominate; every metric but perf is counted from the worst model."""

import math
import random

import pytest

from server.evaluation.leaderboard.dynascore import (
    DEFAULT_WEIGHTS,
    RESOLUTIONS,
    Resolution,
    compute_dynascores,
    compute_resolved_dynascores,
    rank,
    snap_to_resolution,
)
from tests.unit.test_dynascore import TABLE

TOL = 1e-9


def order(results):
    return [model_id for model_id, _ in rank(results)]


def test_two_uploads_with_the_same_memory_get_readable_scores():
    # Seen on the leaderboard: 40.6 % and 33.3 % accuracy, memory 0.05 GB each (42 KB apart), exact Dynascores of
    # 346,572.9 and 346,569.3 because the memory AMRS is ~6e-6.
    table = {
        "first": {"perf": 40.6, "throughput": 20.0, "memory": 0.050042, "robustness": 0.7, "fairness": 0.9},
        "second": {"perf": 33.3, "throughput": 20.5, "memory": 0.050000, "robustness": 0.7, "fairness": 0.9},
    }
    exact = compute_dynascores(table, DEFAULT_WEIGHTS)
    assert exact["first"].dynascore > 300_000  # the exact computation, kept for reproducing published numbers

    resolved = compute_resolved_dynascores(table, DEFAULT_WEIGHTS)
    # memory, throughput (2.5 % apart), robustness and fairness are all ties: only perf counts, at its weight 4/8
    for model_id in table:
        assert resolved[model_id].dynascore == pytest.approx(0.5 * table[model_id]["perf"], abs=TOL)
        assert resolved[model_id].contributions["memory"] == 0
        assert resolved[model_id].values["memory"] == table[model_id]["memory"]  # the measured number is kept
    assert order(resolved) == ["first", "second"]


def test_above_resolution_the_ranking_is_dynaboards_and_terms_count_from_the_worst():
    exact = compute_dynascores(TABLE, DEFAULT_WEIGHTS)
    resolved = compute_resolved_dynascores(TABLE, DEFAULT_WEIGHTS)
    assert order(resolved) == order(exact)
    for metric in ("throughput", "memory", "robustness", "fairness"):
        lowest = min(r.contributions[metric] for r in exact.values())
        for model_id, result in resolved.items():
            assert result.contributions[metric] == pytest.approx(exact[model_id].contributions[metric] - lowest, abs=TOL)
        assert min(r.contributions[metric] for r in resolved.values()) == pytest.approx(0, abs=TOL)
    for result in resolved.values():
        assert result.contributions["perf"] == pytest.approx(0.5 * result.perf, abs=TOL)
        assert all(c >= 0 for c in result.contributions.values())
        assert sum(result.contributions.values()) == pytest.approx(result.dynascore, abs=TOL)
    # a = 30 + throughput 6.25 − 3.75 + memory 8.75 − 6.5625 + 0 + 0 (hand-computed in test_dynascore.py)
    assert resolved["a"].dynascore == pytest.approx(30 + 2.5 + 2.1875, abs=TOL)


def test_a_model_without_a_metric_counts_as_the_worst():
    table = {mid: dict(values) for mid, values in TABLE.items()}
    del table["b"]["robustness"]
    resolved = compute_resolved_dynascores(table, DEFAULT_WEIGHTS)
    assert resolved["b"].contributions["robustness"] == 0
    assert min(resolved[m].contributions["robustness"] for m in ("a", "c", "d")) == pytest.approx(0, abs=TOL)


def test_one_model_alone_scores_its_weighted_perf():
    alone = compute_resolved_dynascores({"only": TABLE["a"]}, DEFAULT_WEIGHTS)
    assert alone["only"].dynascore == pytest.approx(0.5 * 60, abs=TOL)
    assert compute_resolved_dynascores({}, DEFAULT_WEIGHTS) == {}


def test_snapping_groups_values_that_tie_with_the_lowest_of_their_group():
    memory = Resolution(absolute=0.05)
    snapped = snap_to_resolution({"a": 0.10, "b": 0.12, "c": 0.149, "d": 0.16, "e": math.nan}, memory)
    assert snapped["a"] == snapped["b"] == snapped["c"] == pytest.approx((0.10 + 0.12 + 0.149) / 3)
    assert snapped["d"] == 0.16  # 0.06 above the group's lowest value: a group of its own
    assert math.isnan(snapped["e"])
    throughput = Resolution(relative=0.10)
    assert throughput.ties(100, 109) and not throughput.ties(100, 112)
    assert snap_to_resolution({}, memory) == {}


def _random_table(rng: random.Random, n: int, flat_metric: str) -> dict[int, dict[str, float]]:
    """n models with perf, throughput, memory, robustness, fairness drawn at random, except `flat_metric`, whose whole
    spread stays below its resolution."""
    resolution = RESOLUTIONS[flat_metric]
    base = {"throughput": rng.uniform(1, 500), "memory": rng.uniform(0.01, 8), "robustness": rng.uniform(0, 1)}
    base["fairness"] = rng.uniform(0, 1)
    low = base[flat_metric]
    width = max(resolution.absolute, resolution.relative * low) * 0.999
    table = {}
    for model_id in range(n):
        values = {
            "perf": rng.choice([rng.uniform(0, 100), round(rng.uniform(0, 100), 0)]),  # some perf ties too
            "throughput": rng.uniform(1, 500),
            "memory": rng.uniform(0.01, 8),
            "robustness": rng.uniform(0, 1),
            "fairness": rng.uniform(0, 1),
        }
        values[flat_metric] = low + rng.uniform(0, width)
        table[model_id] = values
    return table


@pytest.mark.parametrize("flat_metric", sorted(RESOLUTIONS))
def test_no_metric_with_a_sub_resolution_spread_moves_the_ranking(flat_metric):
    rng = random.Random(f"dynascore-{flat_metric}")
    moved_exact = 0
    for _ in range(300):
        table = _random_table(rng, rng.randint(2, 12), flat_metric)
        weights = {m: rng.choice([0.5, 1, 2, 4]) for m in DEFAULT_WEIGHTS}
        weights[flat_metric] = rng.choice([1, 5, 10])
        without = {**weights, flat_metric: 0}
        resolved = compute_resolved_dynascores(table, weights)
        assert order(resolved) == order(compute_resolved_dynascores(table, without))
        assert all(r.contributions[flat_metric] == 0 for r in resolved.values())
        moved_exact += order(compute_dynascores(table, weights)) != order(compute_dynascores(table, without))
    assert moved_exact > 0  # the exact computation does let such a metric reorder models: the tables test something
