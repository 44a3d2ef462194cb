"""The pure rules of battles (docs/design.md §4.1d): which targets answer a prompt, what a vote may say, and what a vote
counts as in the ratings (server/battles/ratings.py). No I/O."""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from server.annotation.records import BattleChoice
from server.battles.ratings import Battle, Outcome
from server.tasks.generative_config import BattleConfig

SIDE_CHOICES = (BattleChoice.A, BattleChoice.B, BattleChoice.C, BattleChoice.D)


def choose_sides(
    targets: Sequence[dict[str, Any]],
    sides: int,
    seen: Collection[frozenset[str]],
    rng: random.Random,
    pair_counts: Mapping[frozenset[str], int] | None = None,
) -> list[dict[str, Any]]:
    """`sides` targets of different names in a random order; a set of names in `seen` (the author's earlier battles of
    the same prompt) only when every set was seen. Among the sets left: any, at random (`pair_counts` None: the
    `random` selection), or (`balanced`) one whose pairs met least so far, by the sum of its pairs' counts in
    `pair_counts` (battles per pair of names in the round), at random among the least."""
    by_name: dict[str, dict[str, Any]] = {}
    for target in targets:
        by_name.setdefault(target["name"], target)
    if len(by_name) < sides:
        raise ValueError(f"{len(by_name)} different targets for {sides} sides")
    every = list(itertools.combinations(sorted(by_name), sides))
    candidates = [names for names in every if frozenset(names) not in seen] or every
    if pair_counts is not None:
        load = {
            names: sum(pair_counts.get(frozenset(pair), 0) for pair in itertools.combinations(names, 2)) for names in candidates
        }
        least = min(load.values())
        candidates = [names for names in candidates if load[names] == least]
    chosen = list(rng.choice(candidates))
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


def position_of(choice: BattleChoice) -> int | None:
    """The position a vote picked (0 = A), None for a tie or both bad."""
    return SIDE_CHOICES.index(choice) if choice in SIDE_CHOICES else None


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


@dataclass(frozen=True)
class Vote:
    """A stored vote as the ratings read it: who voted, on which prompt, the sides' models in position order."""

    voter: int
    prompt: str
    models: Sequence[str]
    choice: BattleChoice
    weight: float = 1.0


_SPACES = re.compile(r"\s+")


def same_prompt_key(prompt: str) -> str:
    """Prompts that differ only in case or spacing are the same prompt."""
    return _SPACES.sub(" ", prompt).strip().casefold()


def battles_of_votes(votes: Iterable[Vote]) -> list[Battle]:
    """The votes (in the order cast) as the ratings count them. A person's votes on the same pair of models and the
    same prompt count once, the first: a pair of a later vote already counted for that voter and prompt is dropped
    (the vote's other pairs still count), so asking the same question again cannot stuff the ballot."""
    counted: set[tuple[int, str, frozenset[str]]] = set()
    result = []
    for vote in votes:
        prompt = same_prompt_key(vote.prompt)
        for battle in rated_battles(vote.models, vote.choice):
            key = (vote.voter, prompt, frozenset((battle.model_a, battle.model_b)))
            if key not in counted:
                counted.add(key)
                result.append(Battle(battle.model_a, battle.model_b, battle.outcome, vote.weight))
    return result
