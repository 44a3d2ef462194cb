"""Vote quality in battles (issue #31): voters whose choices do not depend on what the sides said, and the position
bias of a task's votes. Pure, no I/O; scipy for the binomial test. The rules, also in docs/design.md §4.3a:

- **Positions.** A vote on a battle of k sides either picks a position (0 = A, the side shown first: on top on a
  phone, first in reading order on a wide screen) or none (a tie or "both bad"). Sides are given their positions at
  random (server/annotation/battles/rules.py), so a voter who reads the answers picks each position with probability
  1/k on average, whatever the models.
- **Content-independent voter.** Among a voter's votes that pick a position (n of them), the voter is flagged when
  n ≥ `MIN_DECISIVE` and some position p was picked in a share ≥ `MAX_POSITION_SHARE` of them and the one-sided
  binomial test of that count against the chance share q_p (the mean of 1/k over the n votes, 0 for a position a
  vote did not have) gives p-value < `P_VALUE`. Ten votes all for A flag a voter (0.5¹⁰ ≈ 0.00098); nine of ten do
  not (≈ 0.011). A flagged voter's votes are left out of the ratings (all of them: a voter who does not read is not
  reliable on the votes that happen to vary either). The favourite is whichever position was picked most, so a voter
  who always picks B is flagged as one who always picks A.
- **Position bias** of a task: over the counted votes that pick a position, per number of sides k and position p,
  the share of votes picking p, its 95% Wilson interval, and the chance share 1/k. A task whose interval for A
  excludes 1/2 (two sides) shows a measurable bias toward the side shown first (or against it).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Hashable, Iterable
from dataclasses import dataclass

MIN_DECISIVE = 10
MAX_POSITION_SHARE = 0.8
P_VALUE = 0.001
Z_95 = 1.959963984540054


@dataclass(frozen=True)
class PositionVote:
    voter: Hashable
    sides: int  # 2–4
    picked: int | None  # the position picked (0 = A), None for a tie or both bad

    def __post_init__(self) -> None:
        if not 2 <= self.sides <= 4:
            raise ValueError(f"a battle has 2 to 4 sides, not {self.sides!r}")
        if self.picked is not None and not 0 <= self.picked < self.sides:
            raise ValueError(f"position {self.picked!r} of a battle of {self.sides} sides")


@dataclass(frozen=True)
class VoterCheck:
    voter: Hashable
    votes: int
    decisive: int  # votes that picked a position
    favourite: int | None  # the position picked most (the smallest of equals); None without a decisive vote
    favourite_share: float | None
    p_value: float | None  # the binomial test of the favourite's count; None below MIN_DECISIVE
    flagged: bool


@dataclass(frozen=True)
class PositionShare:
    sides: int
    position: int
    picked: int
    decisive: int
    share: float
    lower: float  # 95% Wilson interval
    upper: float
    chance: float  # 1 / sides


def check_voter(voter: Hashable, votes: Iterable[PositionVote]) -> VoterCheck:
    listed = list(votes)
    decisive = [vote for vote in listed if vote.picked is not None]
    if not decisive:
        return VoterCheck(voter, len(listed), 0, None, None, None, False)
    counts = [sum(1 for vote in decisive if vote.picked == p) for p in range(4)]
    favourite = max(range(4), key=lambda p: (counts[p], -p))
    share = counts[favourite] / len(decisive)
    if len(decisive) < MIN_DECISIVE:
        return VoterCheck(voter, len(listed), len(decisive), favourite, share, None, False)
    from scipy.stats import binomtest  # here: scipy.stats takes a third of a second to import, at every process start

    chance = sum(1 / vote.sides for vote in decisive if favourite < vote.sides) / len(decisive)
    p_value = float(binomtest(counts[favourite], len(decisive), chance, alternative="greater").pvalue)
    flagged = share >= MAX_POSITION_SHARE and p_value < P_VALUE
    return VoterCheck(voter, len(listed), len(decisive), favourite, share, p_value, flagged)


def check_voters(votes: Iterable[PositionVote]) -> dict[Hashable, VoterCheck]:
    """Every voter's check, by voter."""
    by_voter: dict[Hashable, list[PositionVote]] = defaultdict(list)
    for vote in votes:
        by_voter[vote.voter].append(vote)
    return {voter: check_voter(voter, listed) for voter, listed in by_voter.items()}


def wilson(successes: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of a binomial share (0, 1 when there is no trial)."""
    if trials == 0:
        return 0.0, 1.0
    share = successes / trials
    centre = (share + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z / (1 + z * z / trials) * math.sqrt(share * (1 - share) / trials + z * z / (4 * trials * trials))
    return max(0.0, centre - half), min(1.0, centre + half)


def position_bias(votes: Iterable[PositionVote]) -> list[PositionShare]:
    """Per number of sides (ascending) and position: how often the decisive votes picked it."""
    picked: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for vote in votes:
        if vote.picked is not None:
            picked[vote.sides][vote.picked] += 1
    shares = []
    for sides in sorted(picked):
        total = sum(picked[sides])
        for position in range(sides):
            lower, upper = wilson(picked[sides][position], total)
            count = picked[sides][position]
            shares.append(PositionShare(sides, position, count, total, count / total, lower, upper, 1 / sides))
    return shares
