import math

import pytest

from server.evaluation.leaderboard.dynascore import (
    DEFAULT_WEIGHTS,
    compute_dynascores,
    dataset_weighted_metrics,
    normalize_weights,
    priced_metrics,
    rank,
)

# ------------------------------------------------------------------------------------------------
# The table worked out by hand (memory budget 16 GB, default weights perf 4, others 1).
#
#   model  perf  throughput  memory  robustness  fairness
#   c       80       6         5.5      0.90       0.76
#   a       60      10         2        0.80       0.70
#   d       75       7         4        0.85       0.79
#   b       70       8         3        0.90       0.76
#
# Converted: x' = x, except memory' = 16 - memory: a 14, b 13, d 12, c 10.5.
# Weights normalized (sum 8): perf 4/8 = 0.5, others 1/8 = 0.125.
# Sorted by perf: a 60, b 70, d 75, c 80. Adjacent pairs (a,b) (b,d) (d,c):
#   Δperf = 10, 5, 5; cutoff 1e-4 * 80 = 0.008 -> all three pairs kept.
#   throughput |Δ| = 2, 1, 1        -> ratios 0.2, 0.2, 0.2     -> AMRS 0.2
#   memory'    |Δ| = 1, 1, 1.5      -> ratios 0.1, 0.2, 0.3     -> AMRS 0.2
#   robustness |Δ| = .10, .05, .05  -> ratios .01, .01, .01     -> AMRS 0.01
#   fairness   |Δ| = .06, .03, .03  -> ratios .006, .006, .006  -> AMRS 0.006
#   AMRS perf = 1.
# Term = w · x' / AMRS:
#   perf        0.5 · perf                    a 30     b 35      d 37.5    c 40
#   throughput  0.125/0.2 = 0.625 · x         a 6.25   b 5       d 4.375   c 3.75
#   memory      0.625 · x'                    a 8.75   b 8.125   d 7.5     c 6.5625
#   robustness  0.125/0.01 = 12.5 · x         a 10     b 11.25   d 10.625  c 11.25
#   fairness    0.125/0.006 = 125/6 · x       a 175/12 b 95/6    d 395/24  c 95/6
#                                             (14.5833…)(15.8333…)(16.4583…)(15.8333…)
# Dynascore:
#   a = 30 + 6.25 + 8.75 + 10 + 175/12           = 55 + 175/12      = 69.583333…
#   b = 35 + 5 + 8.125 + 11.25 + 95/6            = 59.375 + 95/6    = 75.208333…
#   d = 37.5 + 4.375 + 7.5 + 10.625 + 395/24     = 60 + 395/24      = 76.458333…
#   c = 40 + 3.75 + 6.5625 + 11.25 + 95/6        = 61.5625 + 95/6   = 77.395833…
# Rank: c, d, b, a (perf alone would give the same order here; robustness/fairness terms are large
# because their AMRS are small, as in Dynaboard).
# ------------------------------------------------------------------------------------------------
TABLE = {
    "c": {"perf": 80, "throughput": 6, "memory": 5.5, "robustness": 0.90, "fairness": 0.76},
    "a": {"perf": 60, "throughput": 10, "memory": 2, "robustness": 0.80, "fairness": 0.70},
    "d": {"perf": 75, "throughput": 7, "memory": 4, "robustness": 0.85, "fairness": 0.79},
    "b": {"perf": 70, "throughput": 8, "memory": 3, "robustness": 0.90, "fairness": 0.76},
}
EXPECTED = {
    "a": 55 + 175 / 12,
    "b": 59.375 + 95 / 6,
    "d": 60 + 395 / 24,
    "c": 61.5625 + 95 / 6,
}
TOL = 1e-9


def approx(value):
    return pytest.approx(value, abs=TOL)


def scores(results):
    return {model_id: result.dynascore for model_id, result in results.items()}


def test_hand_computed_table():
    results = compute_dynascores(TABLE, DEFAULT_WEIGHTS, memory_budget_gb=16.0)
    assert scores(results) == {k: approx(v) for k, v in EXPECTED.items()}
    amrs = results["a"].amrs
    assert amrs == {
        "perf": 1.0,
        "throughput": approx(0.2),
        "memory": approx(0.2),
        "robustness": approx(0.01),
        "fairness": approx(0.006),
    }
    assert all(r.amrs == amrs for r in results.values())
    assert results["a"].converted["memory"] == 14.0
    assert results["c"].converted["memory"] == 10.5
    assert results["a"].weights == {"perf": 0.5, "throughput": 0.125, "memory": 0.125, "robustness": 0.125, "fairness": 0.125}
    assert results["a"].contributions == {
        "perf": approx(30),
        "throughput": approx(6.25),
        "memory": approx(8.75),
        "robustness": approx(10),
        "fairness": approx(175 / 12),
    }
    assert results["d"].contributions == {
        "perf": approx(37.5),
        "throughput": approx(4.375),
        "memory": approx(7.5),
        "robustness": approx(10.625),
        "fairness": approx(395 / 24),
    }
    for result in results.values():
        assert sum(result.contributions.values()) == approx(result.dynascore)
        assert result.perf == TABLE[result.model_id]["perf"]
    assert [model_id for model_id, _ in rank(results)] == ["c", "d", "b", "a"]


def test_default_memory_budget_is_16_gb():
    assert scores(compute_dynascores(TABLE, DEFAULT_WEIGHTS)) == {k: approx(v) for k, v in EXPECTED.items()}


def test_missing_metric_value_contributes_zero_and_is_skipped_in_amrs():
    table = {k: dict(v) for k, v in TABLE.items()}
    table["b"]["robustness"] = None
    results = compute_dynascores(table, DEFAULT_WEIGHTS)
    # Robustness pairs (a,b) and (b,d) have no finite Δ and are skipped; (d,c): .05/5 = .01 -> AMRS .01.
    assert results["a"].amrs["robustness"] == approx(0.01)
    assert math.isnan(results["b"].values["robustness"])
    assert results["b"].contributions["robustness"] == 0.0
    assert results["b"].dynascore == approx(EXPECTED["b"] - 11.25)
    for other in "acd":
        assert results[other].dynascore == approx(EXPECTED[other])


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), "n/a"])
def test_non_finite_values_count_as_missing(bad):
    table = {k: dict(v) for k, v in TABLE.items()}
    table["b"]["robustness"] = bad
    assert compute_dynascores(table, DEFAULT_WEIGHTS)["b"].dynascore == approx(EXPECTED["b"] - 11.25)
    del table["b"]["robustness"]
    assert compute_dynascores(table, DEFAULT_WEIGHTS)["b"].dynascore == approx(EXPECTED["b"] - 11.25)


def test_metric_equal_for_all_models_has_amrs_zero_and_contributes_zero():
    table = {k: {**v, "fairness": 0.8} for k, v in TABLE.items()}
    results = compute_dynascores(table, DEFAULT_WEIGHTS)
    assert results["a"].amrs["fairness"] == 0.0
    assert all(r.contributions["fairness"] == 0.0 for r in results.values())
    fairness_terms = {"a": 175 / 12, "b": 95 / 6, "d": 395 / 24, "c": 95 / 6}
    assert scores(results) == {k: approx(EXPECTED[k] - fairness_terms[k]) for k in EXPECTED}


def test_metric_missing_for_every_model_contributes_zero():
    table = {k: {m: v for m, v in row.items() if m != "throughput"} for k, row in TABLE.items()}
    results = compute_dynascores(table, DEFAULT_WEIGHTS)
    assert math.isnan(results["a"].amrs["throughput"])
    assert scores(results) == {k: approx(EXPECTED[k] - 0.625 * TABLE[k]["throughput"]) for k in EXPECTED}


def test_single_model_only_perf_counts():
    # No adjacent pairs: every AMRS but perf's (1 by definition) is undefined -> those terms are 0.
    results = compute_dynascores({"only": TABLE["b"]}, DEFAULT_WEIGHTS)
    only = results["only"]
    assert only.dynascore == approx(0.5 * 70)
    assert only.amrs["perf"] == 1.0
    assert all(math.isnan(only.amrs[m]) for m in ("throughput", "memory", "robustness", "fairness"))
    assert only.contributions == {"perf": approx(35), "throughput": 0.0, "memory": 0.0, "robustness": 0.0, "fairness": 0.0}


def test_no_models():
    assert compute_dynascores({}, DEFAULT_WEIGHTS) == {}
    assert rank({}) == []


def test_all_perfs_tied_behaves_like_single_models():
    table = {k: {**v, "perf": 70} for k, v in TABLE.items()}
    results = compute_dynascores(table, DEFAULT_WEIGHTS)
    assert all(r.dynascore == approx(35) for r in results.values())


def test_tied_pairs_are_dropped_and_ties_are_ordered_by_model_id():
    # Sorted by (perf, id): a 50, b 50, c 60. Pair (a,b) has Δperf 0: dropped.
    # Pair (b,c): |Δthroughput| 10 / Δperf 10 -> AMRS 1. Weights 1:1 -> 0.5 each.
    # a = .5·50 + .5·10 = 30; b = .5·50 + .5·30 = 40; c = .5·60 + .5·20 = 40.
    table = {"b": {"perf": 50, "throughput": 30}, "c": {"perf": 60, "throughput": 20}, "a": {"perf": 50, "throughput": 10}}
    results = compute_dynascores(table, {"perf": 1, "throughput": 1})
    assert results["a"].amrs["throughput"] == approx(1.0)
    assert scores(results) == {"a": approx(30), "b": approx(40), "c": approx(40)}
    # b and c tie on Dynascore: higher perf first.
    assert [model_id for model_id, _ in rank(results)] == ["c", "b", "a"]


def test_near_ties_below_the_cutoff_are_dropped():
    # Cutoff 1e-4 · 90 = 0.009. (a,b): Δperf 0.005 -> dropped. (b,c): Δperf 9.995, |Δtp| 20.
    table = {"a": {"perf": 80, "throughput": 10}, "b": {"perf": 80.005, "throughput": 20}, "c": {"perf": 90, "throughput": 0}}
    results = compute_dynascores(table, {"perf": 1, "throughput": 1})
    assert results["a"].amrs["throughput"] == approx(20 / 9.995)
    # Just above the cutoff the pair counts: (a,b) 10/0.01 = 1000, (b,c) 20/9.99 -> mean.
    table["b"]["perf"] = 80.01
    results = compute_dynascores(table, {"perf": 1, "throughput": 1})
    assert results["a"].amrs["throughput"] == pytest.approx((10 / 0.01 + 20 / 9.99) / 2, rel=1e-9)


def test_weights_are_normalized_so_scale_does_not_matter():
    base = scores(compute_dynascores(TABLE, DEFAULT_WEIGHTS))
    scaled = scores(compute_dynascores(TABLE, {m: 10 * w for m, w in DEFAULT_WEIGHTS.items()}))
    assert scaled == {k: approx(v) for k, v in base.items()}
    assert normalize_weights({"perf": 4, "memory": 1, "fairness": 0}) == {"perf": 0.8, "memory": 0.2, "fairness": 0.0}


def test_zero_and_absent_weights_contribute_zero():
    weights = {**DEFAULT_WEIGHTS, "fairness": 0}
    results = compute_dynascores(TABLE, weights)
    # Weights now sum to 7: perf 4/7, others 1/7. fairness contributes 0.
    assert all(r.contributions["fairness"] == 0.0 for r in results.values())
    a = 4 / 7 * 60 + (1 / 7) * (10 / 0.2 + 14 / 0.2 + 0.80 / 0.01)
    assert results["a"].dynascore == approx(a)
    # A metric left out of the weights is the same as weight 0.
    absent = {m: w for m, w in weights.items() if m != "fairness"}
    assert scores(compute_dynascores(TABLE, absent)) == {k: approx(v) for k, v in scores(results).items()}
    # A zero-weight metric that is missing or NaN does not matter at all.
    table = {k: {**v, "fairness": float("nan")} for k, v in TABLE.items()}
    assert scores(compute_dynascores(table, weights)) == {k: approx(v) for k, v in scores(results).items()}
    # perf alone: Dynascore = perf.
    assert scores(compute_dynascores(TABLE, {"perf": 3})) == {k: approx(v["perf"]) for k, v in TABLE.items()}


@pytest.mark.parametrize("weights", [{}, {"perf": 0, "memory": 0}, {"perf": -1, "memory": 2}, {"perf": float("nan")}])
def test_invalid_weights_raise(weights):
    with pytest.raises(ValueError):
        compute_dynascores(TABLE, weights)


def test_less_memory_gives_a_higher_score_all_else_equal():
    # x and y differ only in memory (2 vs 8 GB) and tie on perf; z sets the AMRS: pair (y, z) has
    # |Δmemory'| = |(16-5) - (16-8)| = 3 over Δperf 10.
    table = {
        "x": {"perf": 70, "throughput": 5, "memory": 2, "robustness": 0.9, "fairness": 0.9},
        "y": {"perf": 70, "throughput": 5, "memory": 8, "robustness": 0.9, "fairness": 0.9},
        "z": {"perf": 80, "throughput": 4, "memory": 5, "robustness": 0.8, "fairness": 0.8},
    }
    results = compute_dynascores(table, DEFAULT_WEIGHTS)
    assert results["x"].amrs["memory"] == approx(0.3)
    assert results["x"].converted["memory"] == 14 and results["y"].converted["memory"] == 8
    assert results["x"].dynascore > results["y"].dynascore
    assert results["x"].dynascore - results["y"].dynascore == approx(0.125 * (14 - 8) / 0.3)
    # Over budget the converted value goes negative: still lower, never clipped.
    table["y"]["memory"] = 20
    assert compute_dynascores(table, DEFAULT_WEIGHTS)["y"].converted["memory"] == -4
    # A bigger budget shifts every memory term by the same amount: the order does not change.
    big = compute_dynascores(table, DEFAULT_WEIGHTS, memory_budget_gb=64)
    assert [m for m, _ in rank(big)] == [m for m, _ in rank(compute_dynascores(table, DEFAULT_WEIGHTS))]


def test_directions_can_be_overridden_but_perf_stays_higher_is_better():
    table = {"a": {"perf": 60, "latency": 10}, "b": {"perf": 70, "latency": 30}}
    # latency, lower is better: x' = -x; AMRS = 20/10 = 2; weights .5/.5.
    results = compute_dynascores(table, {"perf": 1, "latency": 1}, directions={"latency": -1})
    assert results["a"].dynascore == approx(0.5 * 60 + 0.5 * -10 / 2)
    assert results["b"].dynascore == approx(0.5 * 70 + 0.5 * -30 / 2)
    with pytest.raises(ValueError):
        compute_dynascores(table, {"perf": 1}, directions={"perf": -1})
    with pytest.raises(ValueError):
        compute_dynascores(table, {"perf": 1}, directions={"latency": 2})


@pytest.mark.parametrize("perf", [None, float("nan")])
def test_perf_is_required(perf):
    with pytest.raises(ValueError, match="perf"):
        compute_dynascores({"a": {"perf": perf}, "b": {"perf": 50}}, DEFAULT_WEIGHTS)


def test_dataset_weighted_metrics():
    scores_ = [
        (1, {"perf": 80, "throughput": 10, "robustness": 0.9}),
        (2, {"perf": 60, "throughput": 20, "robustness": None}),
        (3, {"perf": 70, "throughput": 30}),
    ]
    # Equal weights by default; robustness only where present.
    assert dataset_weighted_metrics(scores_) == {"perf": approx(70), "throughput": approx(20), "robustness": approx(0.9)}
    assert dataset_weighted_metrics(scores_, {}) == dataset_weighted_metrics(scores_)
    # Weights 3, 1, 0: dataset 3 is left out. perf (3·80 + 60)/4 = 75; throughput (30 + 20)/4 = 12.5.
    assert dataset_weighted_metrics(scores_, {1: 3, 2: 1, 3: 0}) == {
        "perf": approx(75),
        "throughput": approx(12.5),
        "robustness": approx(0.9),
    }
    # A dataset absent from the weights counts with weight 1: (3·80 + 60 + 70)/5 = 74.
    assert dataset_weighted_metrics(scores_, {1: 3})["perf"] == approx(74)
    # perf is listed first.
    assert list(dataset_weighted_metrics([(1, {"fairness": 1, "perf": 2})])) == ["perf", "fairness"]
    assert dataset_weighted_metrics(scores_, {1: 0, 2: 0, 3: 0}) == {}
    with pytest.raises(ValueError):
        dataset_weighted_metrics(scores_, {2: -1})


def test_rank_orders_by_dynascore_then_perf_then_id():
    table = {
        10: {"perf": 50},
        2: {"perf": 50},
        "m": {"perf": 60},
    }
    results = compute_dynascores(table, {"perf": 1})
    # Dynascore = perf here; 2 and 10 tie on both -> numeric id order.
    assert [m for m, _ in rank(results)] == ["m", 2, 10]


def test_priced_metrics_name_what_the_weights_can_move():
    assert priced_metrics(compute_dynascores(TABLE, DEFAULT_WEIGHTS).values()) == list(DEFAULT_WEIGHTS)
    alone = compute_dynascores({"a": TABLE["a"]}, DEFAULT_WEIGHTS)
    assert priced_metrics(alone.values()) == ["perf"]  # one model: only performance counts
    same_fairness = {k: {**v, "fairness": 0.8} for k, v in TABLE.items()}
    assert "fairness" not in priced_metrics(compute_dynascores(same_fairness, DEFAULT_WEIGHTS).values())
    assert priced_metrics([]) == ["perf"]
