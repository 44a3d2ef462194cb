"""The battle ratings (server/battles/ratings.py): Bradley–Terry checked against choix and scikit-learn's logistic
regression, hand-checked cases, the bootstrap's determinism, order independence and coverage, and the input rules."""

from __future__ import annotations

import math
import random

import choix
import numpy as np
import pytest
from scipy.special import expit
from sklearn.linear_model import LogisticRegression

from server.battles import bradley_terry
from server.battles.ratings import SCALE, Battle, Cells, aggregate, bootstrap, fit, resampled_strengths

OUTCOMES = np.array(["a", "b", "tie", "both_bad"])


def generate(models: int, battles: int, ties: float = 0.3, seed: int = 0) -> tuple[dict[str, float], list[Battle]]:
    """Arena-shaped battles with known log-strengths: Zipf popularity (a few models fight most), up to `ties` ties
    (half of them "both bad"), and each battle's expected score (a tie = ½) exactly σ(θ_a − θ_b)."""
    rng = np.random.Generator(np.random.PCG64(seed))
    theta = rng.permutation(np.linspace(-1.5, 1.5, models))
    popularity = 1 / np.arange(1, models + 1)
    a, b = rng.choice(models, size=(2, 3 * battles), p=popularity / popularity.sum())
    a, b = a[a != b][:battles], b[a != b][:battles]
    p = expit(theta[a] - theta[b])
    tie = np.minimum(ties, 2 * np.minimum(p, 1 - p))
    u, v = rng.random((2, battles))
    kind = np.where(u < tie, np.where(v < 0.5, 2, 3), np.where(v < (p - tie / 2) / (1 - tie), 0, 1))
    truth = {f"model-{i}": float(t) for i, t in enumerate(theta - theta.mean())}
    return truth, [Battle(f"model-{i}", f"model-{j}", OUTCOMES[k]) for i, j, k in zip(a, b, kind)]


def strengths(ratings: dict[str, float]) -> dict[str, float]:
    return {name: (rating - 1000) / SCALE for name, rating in ratings.items()}


def logistic_regression(cells: Cells, alpha: float) -> np.ndarray:
    """Chatbot Arena's fit: a row per cell (x = e_first − e_second, y = first won), a tie as two half-weighted rows."""
    rows, labels, weights = [], [], []
    for first, second, outcome, weight, count in zip(cells.first, cells.second, cells.outcome, cells.weight, cells.count):
        row = np.zeros(len(cells.names))
        row[first], row[second] = 1, -1
        split = ((1, 1.0),) if outcome == 0 else ((0, 1.0),) if outcome == 1 else ((1, 0.5), (0, 0.5))
        for label, share in split:
            rows.append(row)
            labels.append(label)
            weights.append(weight * count * share)
    model = LogisticRegression(C=1 / alpha, fit_intercept=False, solver="newton-cholesky", tol=1e-12, max_iter=1000)
    model.fit(np.array(rows), np.array(labels), sample_weight=np.array(weights))
    return np.asarray(model.coef_[0])


def choix_fit(battles: list[Battle], names: tuple[str, ...], alpha: float) -> np.ndarray:
    """choix takes (winner, loser) pairs: every vote twice, a tie as one each way (half a win), same prior α."""
    index = {name: i for i, name in enumerate(names)}
    data: list[tuple[int, int]] = []
    for battle in battles:
        a, b = index[battle.model_a], index[battle.model_b]
        data += {"a": [(a, b)] * 2, "b": [(b, a)] * 2}.get(battle.outcome, [(a, b), (b, a)])
    theta = choix.opt_pairwise(len(names), data, alpha=alpha, method="Newton-CG", tol=1e-12)
    return np.asarray(theta - theta.mean())


# The fit against independent implementations -------------------------------------------------------------------------


@pytest.mark.parametrize("alpha", [0.01, 1.0])
def test_the_fit_matches_logistic_regression_on_arena_shaped_data(alpha: float) -> None:
    _, battles = generate(models=8, battles=20_000, seed=3)
    cells = aggregate(battles)
    ours = strengths(fit(battles, alpha=alpha))
    theirs = logistic_regression(cells, alpha)
    assert abs(theirs.mean()) < 1e-9  # the prior centres both
    assert max(abs(ours[name] - theirs[i]) for i, name in enumerate(cells.names)) < 1e-6


def test_the_fit_matches_logistic_regression_with_weights_and_forty_models() -> None:
    _, battles = generate(models=40, battles=20_000, seed=4)
    rng = random.Random(4)
    weighted = [Battle(b.model_a, b.model_b, b.outcome, rng.choice((0.25, 0.5, 1.0, 1.5))) for b in battles]
    cells = aggregate(weighted)
    ours = strengths(fit(weighted))
    theirs = logistic_regression(cells, 0.01)
    assert max(abs(ours[name] - theirs[i]) for i, name in enumerate(cells.names)) < 1e-6


def test_the_fit_matches_choix() -> None:
    # choix walks its data in Python: a smaller set of the same shape keeps this test to a second.
    _, battles = generate(models=8, battles=1_500, seed=5)
    names = aggregate(battles).names
    ours = strengths(fit(battles))
    theirs = choix_fit(battles, names, 0.01)
    assert max(abs(ours[name] - theirs[i]) for i, name in enumerate(names)) < 1e-6


def test_the_fit_recovers_the_true_strengths() -> None:
    truth, battles = generate(models=8, battles=20_000, seed=6)
    ours = strengths(fit(battles))
    assert max(abs(ours[name] - truth[name]) for name in truth) < 0.1


def test_the_optimum_has_no_gradient() -> None:
    _, battles = generate(models=12, battles=5_000, seed=7)
    wins = aggregate(battles).win_matrices()
    theta = bradley_terry.fit(wins, 0.01)
    assert np.abs(bradley_terry.gradient(wins, theta, 0.01)).max() < 1e-8 * wins.sum()


# Hand-checked cases -------------------------------------------------------------------------------------------------


def test_three_wins_to_one_is_log_odds_ln_3() -> None:
    battles = [Battle("x", "y", "a")] * 3 + [Battle("x", "y", "b")]
    ratings = fit(battles, alpha=1e-12)
    assert ratings["x"] - ratings["y"] == pytest.approx(SCALE * math.log(3), abs=1e-6)
    assert ratings["x"] - ratings["y"] == pytest.approx(400 * math.log10(3), abs=1e-6)  # Elo: 400 points = 10:1
    assert ratings["x"] + ratings["y"] == pytest.approx(2000, abs=1e-9)  # mean 1000
    theirs = choix_fit(battles, ("x", "y"), 1e-12)
    assert theirs[0] - theirs[1] == pytest.approx(math.log(3), abs=1e-6)


@pytest.mark.parametrize("tie", ["tie", "both_bad"])
def test_a_tie_is_half_a_win_each_way(tie: str) -> None:
    # One win and one tie: a score of 1.5 to 0.5, the same odds as three wins to one.
    ratings = fit([Battle("x", "y", "a"), Battle("y", "x", tie)], alpha=1e-12)  # type: ignore[arg-type]
    assert ratings["x"] - ratings["y"] == pytest.approx(SCALE * math.log(3), abs=1e-6)


def test_a_weight_counts_as_that_many_votes() -> None:
    once = fit([Battle("x", "y", "a", 2.0), Battle("y", "z", "a"), Battle("z", "x", "tie", 3.0), Battle("y", "x", "a")])
    many = fit([Battle("x", "y", "a")] * 2 + [Battle("y", "z", "a")] + [Battle("z", "x", "tie")] * 3 + [Battle("y", "x", "a")])
    assert all(once[name] == pytest.approx(many[name], abs=1e-9) for name in many)


def test_a_model_that_never_lost_gets_a_finite_rating() -> None:
    battles = [Battle("champion", rival, "a") for rival in ("x", "y") for _ in range(50)] + [Battle("x", "y", "tie")]
    ratings = fit(battles)
    assert all(math.isfinite(r) for r in ratings.values())
    assert ratings["champion"] == max(ratings.values())
    result = bootstrap(battles, rounds=200, seed=1)
    assert result.models[0].name == "champion" and math.isfinite(result.models[0].upper)


def test_a_disconnected_graph_centres_each_piece() -> None:
    battles = [Battle("a", "b", "a")] * 3 + [Battle("a", "b", "b"), Battle("c", "d", "a"), Battle("d", "c", "tie")]
    ratings = fit(battles)
    assert ratings["a"] + ratings["b"] == pytest.approx(2000, abs=1e-9)
    assert ratings["c"] + ratings["d"] == pytest.approx(2000, abs=1e-9)
    result = bootstrap(battles, rounds=100, seed=2)
    assert {m.name for m in result.models} == {"a", "b", "c", "d"}
    assert result.win_rate[[m.name for m in result.models].index("a")][[m.name for m in result.models].index("c")] is None


def test_counts_and_win_rates() -> None:
    battles = [Battle("x", "y", "a"), Battle("y", "x", "a"), Battle("x", "y", "a"), Battle("x", "z", "tie")]
    battles += [Battle("z", "y", "both_bad"), Battle("y", "z", "b", 3.0)]
    result = bootstrap(battles, rounds=50)
    x, y, z = (result.model(name) for name in "xyz")
    assert (x.battles, x.wins, x.losses, x.ties, x.both_bad) == (4, 2, 1, 1, 0)
    assert (y.battles, y.wins, y.losses, y.ties, y.both_bad) == (5, 1, 3, 0, 1)
    assert (z.battles, z.wins, z.losses, z.ties, z.both_bad) == (3, 1, 0, 1, 1)
    assert result.votes == 6
    names = [m.name for m in result.models]
    rate = {(names[i], names[j]): result.win_rate[i][j] for i in range(3) for j in range(3)}
    assert rate["x", "y"] == pytest.approx(2 / 3) and rate["y", "x"] == pytest.approx(1 / 3)
    assert rate["z", "y"] == 1.0 and rate["y", "z"] == 0.0  # weighted: the one decisive vote, weight 3
    assert rate["x", "z"] is None and rate["x", "x"] is None  # only a tie; itself


# The bootstrap -------------------------------------------------------------------------------------------------------


def test_the_same_seed_gives_the_same_numbers_and_another_seed_others() -> None:
    _, battles = generate(models=8, battles=5_000, seed=8)
    first, again, other = bootstrap(battles, seed=11), bootstrap(battles, seed=11), bootstrap(battles, seed=12)
    assert first == again
    assert [(m.lower, m.upper) for m in first.models] != [(m.lower, m.upper) for m in other.models]
    assert [m.rating for m in first.models] == [m.rating for m in other.models]  # the point fit is on all battles


def test_the_order_and_the_sides_of_the_battles_do_not_matter() -> None:
    _, battles = generate(models=8, battles=5_000, seed=9)
    swapped = {"a": "b", "b": "a", "tie": "tie", "both_bad": "both_bad"}
    shuffled = [Battle(b.model_b, b.model_a, swapped[b.outcome]) if i % 2 else b for i, b in enumerate(battles)]  # type: ignore[arg-type]
    random.Random(9).shuffle(shuffled)
    assert bootstrap(shuffled, rounds=300, seed=5) == bootstrap(battles, rounds=300, seed=5)


def test_the_intervals_cover_the_true_ratings() -> None:
    truth, battles = generate(models=8, battles=20_000, seed=10)
    result = bootstrap(battles, seed=10)
    inside = [m.lower <= 1000 + SCALE * truth[m.name] <= m.upper for m in result.models]
    assert sum(inside) >= 7, [(m.name, m.lower, 1000 + SCALE * truth[m.name], m.upper) for m in result.models]
    assert all(m.lower < m.rating < m.upper for m in result.models)


def test_ranks_follow_the_interval_rule_and_stability_is_a_share() -> None:
    _, battles = generate(models=10, battles=3_000, seed=12)
    result = bootstrap(battles, rounds=500, seed=12)
    for m in result.models:
        assert m.rank == 1 + sum(other.lower > m.upper for other in result.models)
        assert 0 <= m.stability <= 1 and 0 <= m.top_share <= 1
    assert result.models[0].rank == 1
    assert [m.rating for m in result.models] == sorted((m.rating for m in result.models), reverse=True)


def test_well_separated_models_hold_their_ranks() -> None:
    battles = [Battle(f"m{i}", f"m{j}", "a") for i in range(3) for j in range(i + 1, 3) for _ in range(300)]
    battles += [Battle(f"m{i}", f"m{j}", "b") for i in range(3) for j in range(i + 1, 3) for _ in range(30)]
    result = bootstrap(battles, rounds=300, seed=1)
    assert [(m.name, m.rank, m.stability, m.top_share) for m in result.models] == [
        ("m0", 1, 1.0, 1.0),
        ("m1", 2, 1.0, 0.0),
        ("m2", 3, 1.0, 0.0),
    ]


def test_a_round_fitted_in_the_batch_equals_its_fit_alone() -> None:
    _, battles = generate(models=8, battles=2_000, seed=13)
    cells = aggregate(battles)
    batch = resampled_strengths(cells, 40, seed=3, alpha=0.01)
    counts = np.random.Generator(np.random.PCG64(3)).multinomial(cells.votes, cells.count / cells.votes, size=40)
    alone = bradley_terry.fit(cells.win_matrices(counts[17:18]), 0.01)
    assert np.abs(batch[17] - alone[0]).max() < 1e-9


def test_no_battles_give_no_models() -> None:
    result = bootstrap([], rounds=10)
    assert (result.models, result.win_rate, result.votes) == ((), (), 0)


# Input rules ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (("x", "y", "draw"), "unknown battle outcome 'draw'"),
        (("x", "x", "a"), "against itself"),
        (("", "y", "a"), "non-empty names"),
        (("x", "y", "a", math.nan), "finite number"),
        (("x", "y", "a", math.inf), "finite number"),
        (("x", "y", "a", -1.0), "finite number"),
        (("x", "y", "a", True), "finite number"),
    ],
)
def test_a_battle_is_checked(arguments: tuple[object, ...], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Battle(*arguments)  # type: ignore[arg-type]


def test_the_bootstrap_and_the_prior_are_checked() -> None:
    battles = [Battle("x", "y", "a")]
    with pytest.raises(ValueError, match="at least one round"):
        bootstrap(battles, rounds=0)
    with pytest.raises(ValueError, match="alpha must be a positive number"):
        fit(battles, alpha=0.0)
    with pytest.raises(ValueError, match="expected a Battle"):
        fit([("x", "y", "a")])  # type: ignore[list-item]
    assert fit([Battle("x", "y", "a", 0.0), Battle("x", "y", "b")])["y"] > 1000  # weight 0 is allowed
