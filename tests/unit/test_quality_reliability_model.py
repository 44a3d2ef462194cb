"""Dawid–Skene validator reliability and the reliability-weighted outcome rule (server/annotation/quality/reliability_model.py)."""

import itertools

import numpy as np
import pytest

from server.annotation.aggregation import Vote, outcome
from server.annotation.quality.reliability_model import (
    VALIDATION_LABELS,
    DecidedBy,
    VoteRecord,
    WeightedVote,
    decide,
    fit,
    weighted_outcome,
)
from server.core.errors import ConfigError

LABELS = ("a", "b", "c")


def synthetic(accuracies, items=1500, per_item=5, prior=(0.5, 0.3, 0.2), seed=0, confusions=None):
    """Votes from workers with known confusion matrices (symmetric errors unless given), and the true labels."""
    rng = np.random.default_rng(seed)
    k = len(prior)
    if confusions is None:
        confusions = []
        for accuracy in accuracies:
            m = np.full((k, k), (1 - accuracy) / (k - 1))
            np.fill_diagonal(m, accuracy)
            confusions.append(m)
    votes, truth = [], {}
    for item in range(items):
        z = int(rng.choice(k, p=prior))
        truth[item] = LABELS[z]
        for w in rng.choice(len(confusions), per_item, replace=False):
            votes.append(VoteRecord(item, int(w), LABELS[int(rng.choice(k, p=confusions[w][z]))]))
    return votes, truth, confusions


def test_a_perfect_validator_and_a_random_one_are_told_apart():
    votes, truth, _ = synthetic([1.0, 1.0, 1.0, 1 / 3, 1 / 3, 0.8, 0.8], items=1200)
    model = fit(votes, LABELS)
    assert model.converged
    assert model.workers[0].accuracy > 0.97
    assert abs(model.workers[3].accuracy - 1 / 3) < 0.06
    # Item posteriors recover the truth almost perfectly with three perfect validators in the pool.
    right = sum(LABELS[int(np.argmax(model.item_posteriors[i]))] == t for i, t in truth.items())
    assert right / len(truth) > 0.97


def test_estimated_confusion_matrices_are_close_to_the_generating_ones():
    asymmetric = np.array([[0.9, 0.05, 0.05], [0.3, 0.6, 0.1], [0.1, 0.3, 0.6]])  # confuses b and c with a
    confusions = (
        [asymmetric] + [np.full((3, 3), 0.1) + np.eye(3) * 0.7 for _ in range(4)] + [np.full((3, 3), 0.25) + np.eye(3) * 0.25] * 3
    )
    votes, _, _ = synthetic(None, items=3000, confusions=confusions, seed=3)
    model = fit(votes, LABELS)
    assert abs(np.array(model.prior) - [0.5, 0.3, 0.2]).max() < 0.03
    for w, true in enumerate(confusions):
        assert np.abs(model.confusion(w) - true).max() < 0.07, w


def test_majority_would_be_fooled_by_colluding_spammers_but_not_dawid_skene():
    # Three good validators and two who always answer "a": on b and c items the majority is often wrong.
    always_a = np.array([[1.0, 0.0, 0.0]] * 3)
    good = np.full((3, 3), 0.05) + np.eye(3) * 0.85
    votes, truth, _ = synthetic(
        None, items=1500, confusions=[good, good, good, always_a, always_a], prior=(1 / 3, 1 / 3, 1 / 3), seed=5
    )
    model = fit(votes, LABELS)
    ds = sum(LABELS[int(np.argmax(model.item_posteriors[i]))] == t for i, t in truth.items()) / len(truth)
    by_item = {}
    for v in votes:
        by_item.setdefault(v.item, []).append(v.label)
    majority = sum(max(LABELS, key=by_item[i].count) == t for i, t in truth.items()) / len(truth)
    assert ds > majority + 0.05
    assert model.workers[3].accuracy < 0.5 < model.workers[0].accuracy


def test_unknown_workers_get_the_default_matrix_and_few_votes_stay_near_it():
    votes = [VoteRecord(1, "new", "a"), VoteRecord(1, "x", "a"), VoteRecord(2, "x", "b"), VoteRecord(2, "y", "b")]
    model = fit(votes, LABELS)
    default = np.array(model.default_confusion)
    assert np.allclose(default, [[0.5, 0.25, 0.25], [0.25, 0.5, 0.25], [0.25, 0.25, 0.5]])
    assert np.allclose(model.confusion("never seen"), default)
    assert np.abs(model.confusion("new") - default).max() < 0.3  # one vote is not full trust


def test_repeated_votes_count_once_and_empty_histories_work():
    once = fit([VoteRecord(1, "w", "a"), VoteRecord(1, "v", "b")], LABELS)
    twice = fit([VoteRecord(1, "w", "a"), VoteRecord(1, "w", "a"), VoteRecord(1, "v", "b")], LABELS)
    assert once.workers["w"].votes == twice.workers["w"].votes == 1
    empty = fit([], LABELS)
    assert empty.prior == (1 / 3, 1 / 3, 1 / 3) and not empty.workers
    assert decide(empty, [], 0.9, 3).by is DecidedBy.OPEN


def test_bad_labels_and_settings_are_refused():
    with pytest.raises(ValueError):
        fit([VoteRecord(1, "w", "zzz")], LABELS)
    with pytest.raises(ConfigError):
        fit([], ("a",))
    with pytest.raises(ConfigError):
        fit([], ("a", "a"))
    with pytest.raises(ConfigError):
        fit([], LABELS, smoothing=0)
    model = fit([VoteRecord(1, "w", "a")], LABELS)
    with pytest.raises(ValueError):
        model.posterior([("w", "zzz")])
    for threshold in (0, 1.01, True):
        with pytest.raises(ConfigError):
            decide(model, [], threshold)


@pytest.fixture(scope="module")
def model():
    """Worker 0 is perfect, workers 1–2 good, worker 9 random (by the history)."""
    votes, _, _ = synthetic([1.0, 0.9, 0.9, 0.8, 0.8, 0.7, 0.7, 0.6, 0.6, 1 / 3], items=2000, seed=11)
    return fit(votes, LABELS)


def test_one_perfect_vote_decides_while_a_random_ones_do_not(model):
    d = decide(model, [(0, "b")], 0.95, 5)
    assert (d.label, d.by, d.votes_used) == ("b", DecidedBy.CONFIDENT, 1)
    d = decide(model, [(9, "b"), (9, "b")], 0.95)  # the same worker twice counts once
    assert (d.label, d.by) == (None, DecidedBy.OPEN)


def test_the_first_confident_prefix_decides_and_later_votes_change_nothing(model):
    d = decide(model, [(1, "c"), (2, "c"), (3, "a"), (4, "a"), (5, "a")], 0.9, 5)
    assert (d.label, d.by, d.votes_used) == ("c", DecidedBy.CONFIDENT, 2)


def test_fallback_after_max_votes_takes_the_most_probable_label_or_none_on_a_tie(model):
    d = decide(model, [(9, "a"), (8, "b"), (7, "c")], 0.999, 3)
    assert d.by is DecidedBy.FALLBACK and d.votes_used == 3 and d.label is not None
    assert d.label == max(d.posterior, key=d.posterior.__getitem__)
    tie = fit([VoteRecord(i, w, lab) for i in range(10) for w, lab in ((1, "a"), (2, "b"))], ("a", "b"))
    d = decide(tie, [(1, "a"), (2, "b")], 0.9, 2)
    assert (d.label, d.by) == (None, DecidedBy.FALLBACK)


def test_posterior_is_a_distribution(model):
    p = model.posterior([(1, "a"), (5, "b"), (9, "c"), ("stranger", "a")])
    assert set(p) == set(LABELS) and abs(sum(p.values()) - 1) < 1e-9 and all(0 <= x <= 1 for x in p.values())


@pytest.fixture(scope="module")
def validation_model():
    votes = []
    for item in range(300):
        truth = "correct" if item % 3 else "incorrect"
        other = "incorrect" if truth == "correct" else "correct"
        votes += [VoteRecord(item, "good1", truth), VoteRecord(item, "good2", truth), VoteRecord(item, "good3", truth)]
        votes.append(VoteRecord(item, "spam", "correct"))
        votes.append(VoteRecord(item, "flipper", other if item % 2 else truth))
    return fit(votes, VALIDATION_LABELS)


def test_weighted_outcome_maps_labels_like_todays_rule(validation_model):
    good = [WeightedVote("good1", "correct"), WeightedVote("good2", "correct")]
    assert weighted_outcome(good, validation_model, 0.95, 3) == "validated"
    bad = [WeightedVote("good1", "incorrect"), WeightedVote("good2", "incorrect")]
    assert weighted_outcome(bad, validation_model, 0.95, 3) == "rejected"
    assert weighted_outcome([WeightedVote("spam", "correct")], validation_model, 0.95, 3) == "open"
    assert weighted_outcome([WeightedVote("x", "incorrect", "owner")], validation_model, 0.95, 3) == "rejected"
    assert (
        weighted_outcome([WeightedVote("spam", "correct"), WeightedVote("x", "flagged", "owner")], validation_model, 0.95, 3)
        == "flagged"
    )


def test_weighted_outcome_never_leaves_an_example_open_after_2n_minus_1_votes(validation_model):
    workers = ["good1", "spam", "flipper", "stranger", "good2"]
    for n in (1, 2, 3):
        for labels in itertools.product(VALIDATION_LABELS, repeat=2 * n - 1):
            votes = [WeightedVote(w, lab) for w, lab in zip(workers, labels, strict=False)]
            assert weighted_outcome(votes, validation_model, 0.99, n) != "open"
            # Today's rule has the same guarantee on the same votes.
            assert outcome([Vote(lab) for lab in labels], n) != "open"


def test_weighted_outcome_needs_a_validation_model(model):
    with pytest.raises(ValueError):
        weighted_outcome([], model, 0.9, 3)
