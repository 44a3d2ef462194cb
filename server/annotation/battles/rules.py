"""The pure rules of battles (docs/design.md §4.1d): which targets answer a prompt, what a vote may say, and what a vote
counts as in the ratings (server/battles/ratings.py). No I/O."""

from __future__ import annotations

import itertools
import random
from collections.abc import Collection, Sequence
from typing import Any

from server.annotation.records import BattleChoice
from server.battles.ratings import Battle, Outcome
from server.tasks.generative_config import BattleConfig

SIDE_CHOICES = (BattleChoice.A, BattleChoice.B, BattleChoice.C, BattleChoice.D)


def choose_sides(
    targets: Sequence[dict[str, Any]], sides: int, seen: Collection[frozenset[str]], rng: random.Random
) -> list[dict[str, Any]]:
    """`sides` targets of different names, at random and in a random order; a set of names in `seen` (the author's
    earlier battles of the same prompt) only when every set was seen."""
    by_name: dict[str, dict[str, Any]] = {}
    for target in targets:
        by_name.setdefault(target["name"], target)
    if len(by_name) < sides:
        raise ValueError(f"{len(by_name)} different targets for {sides} sides")
    every = list(itertools.combinations(sorted(by_name), sides))
    fresh = [names for names in every if frozenset(names) not in seen]
    chosen = list(rng.choice(fresh or every))
    rng.shuffle(chosen)
    return [by_name[name] for name in chosen]


def choices(sides: int, rules: BattleConfig) -> list[BattleChoice]:
    """What a vote on a battle of `sides` sides may say: a side, and tie / both bad when the task allows them."""
    allowed = list(SIDE_CHOICES[:sides])
    if rules.allow_tie:
        allowed.append(BattleChoice.TIE)
    if rules.allow_both_bad:
        allowed.append(BattleChoice.BOTH_BAD)
    return allowed


def rated_battles(models: Sequence[str], choice: BattleChoice) -> list[Battle]:
    """A vote as the ratings count it. Two sides: one battle (a side's win is "a" or "b", tie, both bad). Three or four
    sides: the winner beats each other side (one battle per loser; the losers' pairs say nothing and are not counted);
    a tie or both-bad vote is a tie (or both bad) of every pair."""
    if choice in (BattleChoice.TIE, BattleChoice.BOTH_BAD):
        outcome: Outcome = "tie" if choice == BattleChoice.TIE else "both_bad"
        return [Battle(a, b, outcome) for a, b in itertools.combinations(models, 2)]
    winner = SIDE_CHOICES.index(choice)
    if len(models) == 2:
        return [Battle(models[0], models[1], "a" if winner == 0 else "b")]
    return [Battle(models[winner], other, "a") for i, other in enumerate(models) if i != winner]


def battles_of_votes(votes: Collection[tuple[Sequence[str], BattleChoice]]) -> list[Battle]:
    """Every vote (its sides' models in position order, its choice) as the ratings count it."""
    return [battle for models, choice in votes for battle in rated_battles(models, choice)]
