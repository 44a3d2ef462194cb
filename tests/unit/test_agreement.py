"""A round's agreement kept as summed per-example coincidences equals krippendorff's alpha over all its votes."""

import random

import pytest

from server.annotation.validation.stats import alpha, reference_alpha, unit_coincidences

LABELS = ["correct", "incorrect", "flagged"]


def _summed(units: list[list[str]]) -> tuple[int, list[float]]:
    total_units, total = 0, [0.0] * 9
    for labels in units:
        n, share = unit_coincidences(labels)
        total_units, total = total_units + n, [a + b for a, b in zip(total, share)]
    return total_units, total


@pytest.mark.parametrize("seed", range(200))
def test_summed_coincidences_give_krippendorffs_alpha(seed):
    rng = random.Random(seed)
    weights = [rng.random() for _ in LABELS]
    units = [
        [rng.choices(LABELS, weights)[0] for _ in range(rng.choice([0, 1, 2, 2, 3, 3, 4, 5]))] for _ in range(rng.randint(0, 40))
    ]
    expected = reference_alpha([[labels.count(label) for label in LABELS] for labels in units])
    got = alpha(*_summed(units))
    assert (got is None) == (expected is None)
    if expected is not None:
        assert got == pytest.approx(expected, abs=1e-12)


def test_adding_and_removing_an_example_in_steps_lands_on_the_same_sums():
    units = [["correct", "correct"], ["correct", "incorrect", "flagged"], ["incorrect"]]
    direct = _summed(units)
    # The third example's votes arrive one at a time, each aggregation adding its example's change.
    steps = _summed(units[:2])
    for before, after in ([], ["incorrect"]), (["incorrect"], ["incorrect", "incorrect"]):
        old_units, old = unit_coincidences(before)
        new_units, new = unit_coincidences(after)
        steps = (steps[0] + new_units - old_units, [s + b - a for s, a, b in zip(steps[1], old, new)])
    assert steps[0] == direct[0] + 1  # the third example became pairable with its second vote
    assert alpha(*steps) == pytest.approx(reference_alpha([[2, 0, 0], [1, 1, 1], [0, 2, 0]]), abs=1e-12)


def test_undefined_with_one_label_or_one_pairable_example():
    assert alpha(*_summed([["correct", "correct"], ["correct", "correct", "correct"]])) is None
    assert alpha(*_summed([["correct", "incorrect"], ["flagged"]])) is None
