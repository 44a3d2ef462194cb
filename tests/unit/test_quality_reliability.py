"""The reliability rule's glue (server/annotation/quality/reliability.py): vote rows → model → outcome."""

from server.annotation.quality.reliability import fit_votes, reliable_outcome, validator_reliability
from server.tasks.config import ValidationConfig


def _config(**validation):
    return ValidationConfig.model_validate({"rule": "reliability", "num_matching_validations": 2, **validation})


def _history():
    rows = []
    for n in range(10):
        truth = "correct" if n % 2 == 0 else "incorrect"
        rows += [(n, worker, truth) for worker in (1, 2, 3)]
        rows += [(n, worker, "incorrect") for worker in (4, 5)]
    return rows


def _votes(*pairs, mode="user"):
    return [{"user": user, "label": label, "mode": mode} for user, label in pairs]


def test_the_reliable_validators_decide():
    model = fit_votes(_history())
    config = _config(reliability_threshold=0.9)
    assert reliable_outcome(_votes((4, "incorrect"), (5, "incorrect")), model, config) == "open"
    assert reliable_outcome(_votes((4, "incorrect"), (5, "incorrect"), (1, "correct")), model, config) == "validated"
    assert reliable_outcome(_votes((1, "incorrect"), (2, "incorrect")), model, config) == "rejected"


def test_owner_votes_decide_and_reliabilities_are_read_per_validator():
    model = fit_votes(_history())
    assert reliable_outcome(_votes((9, "flagged"), mode="owner"), model, _config()) == "flagged"
    assert validator_reliability(model, 1) > 0.7 > 0.6 > validator_reliability(model, 4)
    assert validator_reliability(model, 99) is None


def test_an_empty_history_never_leaves_an_example_stuck():
    model = fit_votes([])
    config = _config(reliability_threshold=0.99)
    votes = _votes((1, "correct"), (2, "incorrect"), (3, "correct"))
    assert reliable_outcome(votes, model, config) == "validated"
    assert reliable_outcome(votes[:2], model, config) == "open"
