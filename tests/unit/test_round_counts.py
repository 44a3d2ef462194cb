"""What an example counts for in its round, and the differences writers add (server/annotation/round_counts.py)."""

from server.annotation.round_counts import RoundCounts, contribution


def test_an_example_counts_as_collected_and_as_it_stands():
    assert contribution(retracted=False, hidden_gold=False, fooled=None, status="pending") == RoundCounts(1, 0, 0, 0)
    assert contribution(retracted=False, hidden_gold=False, fooled=True, status="open") == RoundCounts(1, 1, 0, 0)
    assert contribution(retracted=False, hidden_gold=False, fooled=True, status="validated") == RoundCounts(1, 1, 1, 1)
    assert contribution(retracted=False, hidden_gold=False, fooled=False, status="validated") == RoundCounts(1, 0, 1, 0)


def test_retracted_and_hidden_gold_examples_count_for_nothing():
    assert not contribution(retracted=True, hidden_gold=False, fooled=True, status="validated")
    assert not contribution(retracted=False, hidden_gold=True, fooled=True, status="validated")


def test_the_difference_of_a_verdict_moves_only_what_changed():
    before = contribution(retracted=False, hidden_gold=False, fooled=True, status="open")
    after = contribution(retracted=False, hidden_gold=False, fooled=True, status="validated")
    assert after - before == RoundCounts(0, 0, 1, 1)
    assert (after - before).as_params() == {"collected": 0, "fooled": 0, "validated": 1, "validated_fooled": 1}
    # validator_rating: the validators' rejection is the verdict (fooled becomes False)
    rejected = contribution(retracted=False, hidden_gold=False, fooled=False, status="rejected")
    assert rejected - before == RoundCounts(0, -1, 0, 0)
    assert not (before - before)
