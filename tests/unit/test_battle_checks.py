"""Check battles (gold; server/annotation/battles/checks.py): the config block, when a battle is a check and where its
check side goes, how a vote on one is graded, the pause rule, and a paused voter left out of the leaderboard."""

import copy
import random

from server.annotation.battles.checks import check_answer, check_stats, paused, plan_check
from server.annotation.battles.leaderboard import board, voter_quality_of, votes_of
from server.annotation.records import BattleChoice as C
from server.tasks.builtin import GENERATIVE_DEMO
from server.tasks.config import parse_task_config
from server.tasks.generative_config import BattleChecks

OFF_TOPIC = ["Bananas are rich in potassium.", "The train to Lyon leaves at nine."]


def _config(checks):
    document = copy.deepcopy(GENERATIVE_DEMO["config"])
    document["generative"]["battle"] = {"checks": checks}
    return parse_task_config(document)


def test_the_checks_block_has_defaults_and_is_checked_with_its_field_paths():
    config, errors = _config({"rate": 0.1, "replies": ["  Bananas are rich in potassium.  "]})
    assert errors == [] and config is not None
    assert config.generative.battle.checks == BattleChecks(
        rate=0.1, replies=["Bananas are rich in potassium."], min_answers=5, threshold=0.8
    )
    refused = {
        "rate": {"rate": 0, "replies": OFF_TOPIC},
        "replies": {"rate": 0.1, "replies": ["fine", "   "]},
        "min_answers": {"rate": 0.1, "replies": OFF_TOPIC, "min_answers": 0},
        "threshold": {"rate": 0.1, "replies": OFF_TOPIC, "threshold": 1.5},
    }
    for field, checks in refused.items():
        config, errors = _config(checks)
        assert config is None and f"generative.battle.checks.{field}" in {e.field for e in errors}, errors
    config, errors = _config({"rate": 0.6, "replies": OFF_TOPIC})  # at most half the battles are checks
    assert config is None
    config, errors = _config({"rate": 0.1, "replies": ["x" * 4001]})
    assert config is None and "4000" in str(errors[0].message)


def test_a_check_is_drawn_at_the_rate_with_its_side_anywhere():
    checks = BattleChecks(rate=0.25, replies=OFF_TOPIC)
    rng = random.Random(9)
    plans = [plan_check(checks, 3, rng) for _ in range(4000)]
    drawn = [plan for plan in plans if plan is not None]
    assert 900 < len(drawn) < 1100
    assert {plan.position for plan in drawn} == {0, 1, 2} and {plan.reply for plan in drawn} == set(OFF_TOPIC)
    assert plan_check(None, 2, rng) is None


def test_a_vote_for_a_real_side_is_right_and_the_check_side_or_a_tie_wrong():
    assert check_answer(C.A, check_position=1).right
    assert not check_answer(C.B, check_position=1).right
    assert not check_answer(C.TIE, check_position=0).right
    assert check_answer(C.BOTH_BAD, check_position=0) is None  # the real reply may be bad too: no answer
    assert check_answer(C.C, check_position=0).right  # three sides: either real side is right
    stats = check_stats([(C.A, 1), (C.B, 1), (C.BOTH_BAD, 0), (C.TIE, 0), (C.B, 0)])
    assert (stats.answered, stats.right) == (4, 2)


def test_the_gold_pause_rule_applies_to_check_answers():
    rule = BattleChecks(rate=0.1, replies=OFF_TOPIC, min_answers=5, threshold=0.8)
    four_wrong = check_stats([(C.A, 0)] * 4)
    assert not paused(four_wrong, rule)  # fewer than min_answers
    assert paused(check_stats([(C.A, 0)] * 2 + [(C.B, 0)] * 3), rule)  # 3/5 < 0.8
    assert not paused(check_stats([(C.A, 0)] + [(C.B, 0)] * 4), rule)  # 4/5 = 0.8 holds
    assert not paused(check_stats([(C.A, 0)] * 9), None)  # no check rule, no pause


def test_a_paused_voter_is_left_out_of_the_board_until_reinstated():
    rule = BattleChecks(rate=0.1, replies=OFF_TOPIC, min_answers=3, threshold=0.8)
    rows = [
        {"user": u, "username": f"u{u}", "prompt": f"p{i}", "models": ["x", "y"], "choice": "a"} for u in (1, 2) for i in range(3)
    ]
    wrong = [{"user": 2, "username": "u2", "choice": "a", "check_position": 0, "since_reinstated": True}] * 3
    right = [{"user": 1, "username": "u1", "choice": "b", "check_position": 0, "since_reinstated": True}] * 3

    class Rules:  # the battle block's checks, as voter_quality_of reads it
        checks = rule

    qualities = {q.username: q for q in voter_quality_of(rows, right + wrong, Rules())}
    assert qualities["u2"].paused and qualities["u2"].excluded == "paused" and qualities["u2"].checks_right == 0
    assert not qualities["u1"].paused and (qualities["u1"].checks_answered, qualities["u1"].checks_right) == (3, 3)
    result = board(votes_of(rows), {2: "paused"})
    assert (result.ballots, result.counted_ballots, result.paused_voters, result.flagged_voters) == (6, 3, 1, 0)
    # Reinstated: the earlier wrong answers no longer count toward the rule (they stay in the totals).
    reinstated = [{**row, "since_reinstated": False} for row in wrong]
    again = {q.username: q for q in voter_quality_of(rows, right + reinstated, Rules())}
    assert not again["u2"].paused and again["u2"].checks_answered == 3
