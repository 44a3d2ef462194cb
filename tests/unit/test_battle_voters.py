"""Vote quality in battles (server/battles/voters.py) and the leaderboard's pure part (leaderboard.board): voters whose
choices do not depend on the answers are flagged and left out; position bias is measured on the votes counted."""

import math
import random

import pytest
from scipy.stats import binomtest

from server.annotation.battles.leaderboard import board, votes_of
from server.annotation.battles.leaderboard import check_voters as check_votes
from server.annotation.battles.rules import Vote, battles_of_votes
from server.annotation.records import BattleChoice as C
from server.battles.ratings import bootstrap
from server.battles.voters import PositionVote, check_voter, check_voters, position_bias, wilson


def _votes(voter, picks, sides=2):
    return [PositionVote(voter, sides, pick) for pick in picks]


def test_a_voter_who_always_picks_the_first_side_is_flagged_and_nine_of_ten_is_not():
    always_a = check_voter("a", _votes("a", [0] * 10))
    assert always_a.flagged and always_a.favourite == 0 and always_a.favourite_share == 1.0
    assert always_a.p_value == pytest.approx(0.5**10)
    nine = check_voter("n", _votes("n", [0] * 9 + [1]))
    assert not nine.flagged and nine.p_value == pytest.approx(11 / 1024)
    always_b = check_voter("b", _votes("b", [1] * 12 + [None] * 5))  # ties and both-bad votes are not picks
    assert always_b.flagged and always_b.favourite == 1 and always_b.decisive == 12 and always_b.votes == 17
    few = check_voter("f", _votes("f", [0] * 9))
    assert not few.flagged and few.p_value is None  # below ten picks: no test
    assert check_voter("t", _votes("t", [None] * 30)).favourite is None


def test_the_chance_share_follows_the_number_of_sides():
    # Always A on four-sided battles is far less likely by chance (1/4 each): flagged at ten.
    four = check_voter("q", _votes("q", [0] * 10, sides=4))
    assert four.flagged and four.p_value == pytest.approx(0.25**10)
    # Mixed: always C, which only 3- and 4-sided battles have.
    mixed = check_voter("m", _votes("m", [2] * 6, sides=3) + _votes("m", [2] * 6, sides=4))
    chance = (6 / 3 + 6 / 4) / 12
    assert mixed.flagged and mixed.p_value == pytest.approx(chance**12)


def test_voters_who_read_are_not_flagged():
    rng = random.Random(11)
    # 40 voters, 60 votes each, picking the better of two models shown in a random order (80% of the time).
    checks = check_voters(
        PositionVote(voter, 2, side if rng.random() < 0.8 else 1 - side)
        for voter in range(40)
        for side in (rng.randrange(2) for _ in range(60))
    )
    assert len(checks) == 40 and not any(check.flagged for check in checks.values())


def test_position_bias_has_wilson_intervals_per_number_of_sides():
    # Against scipy's Wilson score interval (without continuity correction).
    for successes, trials in ((60, 100), (0, 10), (7, 7), (1, 3), (512, 1000)):
        reference = binomtest(successes, trials).proportion_ci(0.95, method="wilson")
        assert wilson(successes, trials) == pytest.approx((reference.low, reference.high), abs=1e-9)
    assert wilson(0, 0) == (0.0, 1.0)
    shares = position_bias(_votes("x", [0] * 60 + [1] * 40 + [None] * 7) + _votes("y", [2, 2, 0, 1], sides=3))
    assert [(s.sides, s.position, s.picked, s.decisive) for s in shares] == [
        (2, 0, 60, 100),
        (2, 1, 40, 100),
        (3, 0, 1, 4),
        (3, 1, 1, 4),
        (3, 2, 2, 4),
    ]
    assert shares[0].share == 0.6 and shares[0].lower > 0.5 and math.isclose(shares[0].chance, 0.5)
    assert shares[4].chance == pytest.approx(1 / 3)


def test_the_board_leaves_out_a_flagged_voter_and_repeats():
    rng = random.Random(5)
    rows, honest = [], []
    for i in range(300):
        models = ["good", "bad"] if rng.random() < 0.5 else ["bad", "good"]
        better = C.A if models[0] == "good" else C.B
        choice = better if rng.random() < 0.75 else (C.B if better == C.A else C.A)
        rows.append({"user": i % 10, "prompt": f"prompt {i}", "models": models, "choice": choice.value})
        honest.append(Vote(i % 10, f"prompt {i}", models, choice))
    # A voter who always picks A (30 votes), and one honest voter asking the same prompt again (counted once).
    rows += [{"user": 99, "prompt": f"p{i}", "models": ["bad", "good"], "choice": "a"} for i in range(30)]
    rows.append({"user": 0, "prompt": "prompt 0", "models": rows[0]["models"][::-1], "choice": "a"})
    votes = votes_of(rows)
    result = board(votes, {voter: "flagged" for voter, check in check_votes(votes).items() if check.flagged})
    assert (result.ballots, result.counted_ballots, result.flagged_voters, result.repeats) == (331, 301, 1, 1)
    assert result.paused_voters == 0
    assert result.ratings == bootstrap(battles_of_votes(honest), 1000, 0)
    assert result.ratings.model("good").rating > result.ratings.model("bad").rating
    two_sided = [share for share in result.position_bias if share.sides == 2]
    assert sum(share.decisive for share in two_sided) == 2 * 301 and two_sided[0].lower < 0.5 < two_sided[0].upper
