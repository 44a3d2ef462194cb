import itertools

import pytest

from server.annotation.aggregation import Vote, outcome

C, I, F = Vote("correct"), Vote("incorrect"), Vote("flagged")  # noqa: E741 — the labels' initials, as votes are written below


@pytest.mark.parametrize(
    "votes, expected",
    [
        ([], "open"),
        ([C, C], "open"),
        ([C, C, C], "validated"),
        ([I, C, I, I], "rejected"),
        ([F, F, C, F], "flagged"),
        ([C, I, C, I], "open"),
        ([C, I, C, I, C], "validated"),  # reaches N = 3 at the fifth vote
        ([C, I, F, C, I], "flagged"),  # 2N-1 votes, tie between correct and incorrect -> owners decide
        ([C, I, F, F, I], "flagged"),  # 2N-1 votes: incorrect 2, flagged 2 -> not a clear plurality
    ],
)
def test_user_votes_with_n_3(votes, expected):
    assert outcome(votes, 3) == expected


def test_owner_vote_decides_immediately():
    assert outcome([I, I, Vote("correct", "owner")], 3) == "validated"
    assert outcome([Vote("incorrect", "owner")], 3) == "rejected"
    assert outcome([Vote("flagged", "owner")], 3) == "flagged"


def test_first_rule_to_fire_wins_so_late_votes_change_nothing():
    assert outcome([C, C, C, I, I, I], 3) == "validated"


def test_n_of_one():
    assert outcome([I], 1) == "rejected"


@pytest.mark.parametrize("n", [1, 2, 3, 5])
def test_no_example_is_stuck_after_2n_minus_1_votes(n):
    for combo in itertools.product([C, I, F], repeat=2 * n - 1):
        assert outcome(list(combo), n) != "open"
