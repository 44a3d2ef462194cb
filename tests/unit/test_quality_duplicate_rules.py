"""The near-duplicate guard at submission (server/annotation/quality/duplicate_rules.py)."""

import numpy as np
import pytest

from server.annotation.quality.duplicate_rules import (
    DuplicateIndex,
    DuplicateKind,
    DuplicateMatch,
    Earlier,
    Source,
    Thresholds,
    find_duplicate,
)
from server.core.errors import ConfigError

EARLIER = [
    Earlier(1, "The pasta was cold and the waiter ignored us for an hour.", Source.OWN),
    Earlier(2, "Best tacos in town, friendly staff and quick service!", Source.ROUND),
    Earlier(3, "I would not come back here even if the food were free.", Source.ROUND),
]


def test_exact_after_normalization():
    match = find_duplicate("the PASTA was cold, and the waiter ignored us for an hour", EARLIER)
    assert match == DuplicateMatch(1, Source.OWN, DuplicateKind.EXACT, 1.0)
    assert "your earlier example #1" in match.message() and "same text" in match.message()


def test_near_duplicate_by_word_ngrams_names_the_most_similar():
    text = "Best tacos in town, friendly staff and quick service, honestly."
    match = find_duplicate(text, EARLIER)
    assert match is not None and (match.earlier_id, match.source, match.kind) == (2, Source.ROUND, DuplicateKind.NEAR)
    assert 0.7 <= match.score < 1.0
    assert "validated example #2" in match.message()


def test_a_different_text_is_not_a_duplicate():
    assert find_duplicate("The dessert menu was surprisingly creative.", EARLIER) is None
    assert find_duplicate("anything", []) is None


def test_the_jaccard_threshold_is_per_task():
    text = "Best tacos in town, friendly staff and quick service, honestly."
    assert find_duplicate(text, EARLIER, thresholds=Thresholds(jaccard=0.95)) is None


def test_texts_that_normalize_to_nothing_are_never_text_duplicates():
    earlier = [Earlier(1, "!!!", Source.OWN)]
    assert find_duplicate("???", earlier) is None
    assert find_duplicate("...", [Earlier(2, "", Source.OWN)]) is None


def test_exact_wins_over_near_and_the_earliest_wins_ties():
    earlier = [Earlier(5, "great food great price", Source.ROUND), Earlier(6, "Great food, great price.", Source.OWN)]
    assert find_duplicate("great food great price!", earlier) == DuplicateMatch(5, Source.ROUND, DuplicateKind.EXACT, 1.0)


def test_semantic_duplicate_by_cosine_when_vectors_are_given():
    earlier = [
        Earlier(1, "The staff was rude.", Source.OWN, [1.0, 0.0, 0.0]),
        Earlier(2, "Loved the view.", Source.ROUND, np.array([0.0, 1.0, 0.0])),
        Earlier(3, "No vector for this one.", Source.ROUND),
    ]
    match = find_duplicate("Employees were impolite.", earlier, [0.99, 0.05, 0.0], Thresholds(cosine=0.95))
    assert match is not None and (match.earlier_id, match.kind) == (1, DuplicateKind.SEMANTIC)
    assert match.score == pytest.approx(0.99 / np.hypot(0.99, 0.05))
    assert "same meaning" in match.message()
    assert find_duplicate("Employees were impolite.", earlier, [0.7, 0.7, 0.0], Thresholds(cosine=0.95)) is None
    assert find_duplicate("Employees were impolite.", earlier, [0.99, 0.05, 0.0], Thresholds(cosine=None)) is None
    assert find_duplicate("Employees were impolite.", earlier, None) is None


def test_zero_and_non_finite_vectors_match_nothing():
    earlier = [Earlier(1, "a", Source.OWN, [0.0, 0.0]), Earlier(2, "b", Source.OWN, [float("nan"), 1.0])]
    assert find_duplicate("c", earlier, [0.0, 1.0], Thresholds(cosine=0.5)) is None
    assert find_duplicate("c", [Earlier(3, "d", Source.OWN, [0.0, 1.0])], [0.0, 0.0], Thresholds(cosine=0.5)) is None
    assert find_duplicate("c", [Earlier(3, "d", Source.OWN, [0.0, 1.0])], [float("inf"), 0.0], Thresholds(cosine=0.5)) is None


def test_vector_length_mismatches_are_caller_errors():
    with pytest.raises(ValueError):
        DuplicateIndex([Earlier(1, "a", Source.OWN, [1.0, 0.0]), Earlier(2, "b", Source.OWN, [1.0])])
    index = DuplicateIndex([Earlier(1, "a", Source.OWN, [1.0, 0.0])])
    with pytest.raises(ValueError):
        index.check("b", [1.0, 0.0, 0.0])


def test_one_index_serves_many_checks():
    index = DuplicateIndex(EARLIER)
    assert index.check("I would not come back here even if the food were free!!").earlier_id == 3
    assert index.check("Totally new sentence about parking.") is None


@pytest.mark.parametrize("kwargs", [{"jaccard": 0}, {"jaccard": 1.1}, {"cosine": 0}, {"cosine": 1.5}, {"ngram": 0}])
def test_bad_thresholds_are_config_errors(kwargs):
    with pytest.raises(ConfigError):
        Thresholds(**kwargs)
