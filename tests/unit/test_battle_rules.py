"""Battles' config block and pure rules (server/annotation/battles/rules.py): which targets answer, what a vote may say,
and what a vote counts as in the ratings."""

import copy
import random

import pytest

from server.annotation.battles.rules import Vote, battles_of_votes, choices, choose_sides, rated_battles
from server.annotation.records import BattleChoice as C
from server.battles.ratings import Battle
from server.tasks.builtin import GENERATIVE_DEMO
from server.tasks.config import parse_task_config
from server.tasks.generative_config import BattleConfig


def _config(battle):
    document = copy.deepcopy(GENERATIVE_DEMO["config"])
    document["generative"]["battle"] = battle
    return parse_task_config(document)


def test_the_battle_block_has_defaults_and_is_checked_with_its_field_paths():
    config, errors = _config({})
    assert errors == [] and config is not None
    assert config.generative.battle == BattleConfig(
        sides=2, selection="random", votes_per_user_per_day=200, allow_tie=True, allow_both_bad=True
    )
    refused = {
        "sides": ({"sides": 5}, "4"),
        "selection": ({"selection": "round-robin"}, "'random' or 'balanced'"),
        "votes_per_user_per_day": ({"votes_per_user_per_day": 0}, "1"),
        "judge": ({"judge": "x"}, "Extra"),
    }
    for field, (battle, words) in refused.items():
        config, errors = _config(battle)
        assert config is None
        found = {e.field: str(e.message) for e in errors}
        assert words in found[f"generative.battle.{field}"], found
    assert _config(None)[0].generative.battle is None  # no battles: conversations only


def test_sides_are_different_targets_in_a_random_order_avoiding_what_the_author_saw():
    targets = [{"name": "m1", "version": "1"}, {"name": "m2", "version": "1"}, {"name": "m3", "version": "2"}]
    rng = random.Random(7)
    seen_orders = set()
    for _ in range(50):
        chosen = choose_sides(targets, 2, {frozenset({"m1", "m2"}), frozenset({"m1", "m3"})}, rng)
        assert {t["name"] for t in chosen} == {"m2", "m3"}  # the one pair not seen
        seen_orders.add(tuple(t["name"] for t in chosen))
    assert seen_orders == {("m2", "m3"), ("m3", "m2")}
    every_pair = {frozenset(p) for p in ({"m1", "m2"}, {"m1", "m3"}, {"m2", "m3"})}
    names = {frozenset(t["name"] for t in choose_sides(targets, 2, every_pair, rng)) for _ in range(60)}
    assert names == every_pair  # all seen: any pair again
    assert [t["name"] for t in choose_sides([*targets, {"name": "m1", "version": "9"}], 3, set(), rng)].count("m1") == 1
    with pytest.raises(ValueError):
        choose_sides([{"name": "m1"}, {"name": "m1"}], 2, set(), rng)


def test_a_vote_may_name_a_side_and_tie_or_both_bad_as_the_task_allows():
    assert choices(2, BattleConfig()) == [C.A, C.B, C.TIE, C.BOTH_BAD]
    assert choices(4, BattleConfig(sides=4, allow_tie=False)) == [C.A, C.B, C.C, C.D, C.BOTH_BAD]
    assert choices(3, BattleConfig(sides=3, allow_tie=False, allow_both_bad=False)) == [C.A, C.B, C.C]


def test_what_a_vote_counts_as_in_the_ratings():
    assert rated_battles(["x", "y"], C.A) == [Battle("x", "y", "a")]
    assert rated_battles(["x", "y"], C.B) == [Battle("x", "y", "b")]
    assert rated_battles(["x", "y"], C.BOTH_BAD) == [Battle("x", "y", "both_bad")]
    # Three or four sides: the winner beats each other side; the losers' pair is not counted.
    assert rated_battles(["x", "y", "z"], C.C) == [Battle("z", "x", "a"), Battle("z", "y", "a")]
    assert rated_battles(["x", "y", "z"], C.TIE) == [Battle("x", "y", "tie"), Battle("x", "z", "tie"), Battle("y", "z", "tie")]
    assert battles_of_votes([Vote(1, "p", ["x", "y"], C.A), Vote(1, "q", ["y", "x"], C.TIE)]) == [
        Battle("x", "y", "a"),
        Battle("y", "x", "tie"),
    ]


def test_a_persons_votes_on_the_same_pair_and_prompt_count_once():
    votes = [
        Vote(1, "Tell me a joke", ["x", "y"], C.A),
        Vote(1, "  tell me a   JOKE ", ["y", "x"], C.A),  # the same prompt, the same pair, sides swapped: dropped
        Vote(2, "Tell me a joke", ["y", "x"], C.A),  # another voter: counted
        Vote(1, "Tell me a story", ["x", "y"], C.B),  # another prompt: counted
        Vote(1, "Tell me a joke", ["x", "z", "y"], C.B, weight=0.5),  # z beats x (new), z beats y (new)
        Vote(1, "Tell me a joke", ["z", "x"], C.B),  # x against z again: dropped
    ]
    assert battles_of_votes(votes) == [
        Battle("x", "y", "a"),
        Battle("y", "x", "a"),
        Battle("x", "y", "b"),
        Battle("z", "x", "a", 0.5),
        Battle("z", "y", "a", 0.5),
    ]


def test_the_balanced_schedule_picks_the_pairs_that_met_least():
    targets = [{"name": n} for n in ("m1", "m2", "m3", "m4")]
    rng = random.Random(3)
    met = {frozenset(p): 5 for p in (("m1", "m2"), ("m1", "m3"), ("m2", "m3"), ("m2", "m4"), ("m3", "m4"))}
    for _ in range(20):  # every pair met 5 times but m1–m4 (never)
        assert {t["name"] for t in choose_sides(targets, 2, set(), rng, met)} == {"m1", "m4"}
    # Unless this author saw m1–m4 answer this prompt: then the least-met of the others, any of them.
    assert {
        frozenset(t["name"] for t in choose_sides(targets, 2, {frozenset({"m1", "m4"})}, rng, met)) for _ in range(80)
    } == set(met)
    # Three sides: the set whose three pairs met least in total.
    met3 = {**met, frozenset(("m1", "m4")): 5, frozenset(("m1", "m2")): 0}
    chosen = {frozenset(t["name"] for t in choose_sides(targets, 3, set(), rng, met3)) for _ in range(40)}
    assert chosen == {frozenset({"m1", "m2", "m3"}), frozenset({"m1", "m2", "m4"})}
    # Simulated: a balanced campaign meets every pair (nearly) equally often; random drifts.
    counts: dict[frozenset[str], int] = {}
    for _ in range(600):
        pair = frozenset(t["name"] for t in choose_sides(targets, 2, set(), rng, counts))
        counts[pair] = counts.get(pair, 0) + 1
    assert sorted(counts.values()) == [100] * 6
