"""Ratings with uncertainty from side-by-side battles (issue #31): Bradley–Terry, bootstrap intervals, rank stability.
Pure, no I/O; numpy + scipy. The caller passes the battles of one task or of one round (read from rows each time: the
same rows and seed give the same numbers). The rules, also in docs/design.md §4.3a:

- **Votes.** A battle is (model_a, model_b, outcome, weight): outcome "a" or "b" is a win for that side, "tie" and
  "both_bad" are both ties (a "both bad" vote says nothing about which one is better). A tie counts half a win each
  way, as in Chatbot Arena's published analysis. The weight (≥ 0, default 1) scales the vote in the fit, the win
  rates and the bootstrap (for down-weighting unreliable voters); the counts (battles, wins, …) are plain votes.
- **Fit.** Bradley–Terry, P(i beats j) = σ(θ_i − θ_j), by maximum a posteriori on the aggregated weighted win matrix
  with a Gaussian prior N(0, 1/α) on each log-strength (`ALPHA` = 0.01: a standard deviation of 10 in log-odds,
  ≈ 1,737 rating points, worth 1/25 of a battle; flat for real data, yet it keeps a model that never lost, and models
  in separate pieces of the comparison graph, finite). Newton's method to 1e-10 (`server/battles/bradley_terry.py`).
- **Scale and anchor.** rating = 1000 + 400/ln 10 · θ (Elo's scale: 400 points = 10:1 odds). The prior centres θ,
  so the mean rating of the models is 1000; in a graph of several pieces each piece averages 1000 (ratings across
  pieces are not comparable). A model with no battle in a bootstrap round gets the prior's 1000 there.
- **Bootstrap.** `rounds` resamples of the battles with replacement (1,000 by default, as Chatbot Arena), drawn as
  multinomial counts over the distinct (pair, outcome, weight) cells with numpy's Generator(PCG64(seed)); the cells
  are sorted first, so the input order does not matter. The interval is the 2.5th and 97.5th percentile of a
  model's rating over the rounds (numpy's linear interpolation). The point rating is the fit on all battles.
- **Rank.** As Chatbot Arena: rank = 1 + the number of models whose lower bound is above this model's upper bound;
  models whose intervals overlap can share a rank. **Stability** is the share of rounds in which the model holds its
  place in the point order (place = 1 + the number of models rated strictly higher); **top share** the share of
  rounds in which no model is rated above it.
- **Win rates.** win_rate[i][j] = weighted wins of i over j / weighted decisive (non-tie) battles between them;
  None where they have none (never met, or only ties).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal, get_args

import numpy as np
import numpy.typing as npt

from server.battles import bradley_terry

Outcome = Literal["a", "b", "tie", "both_bad"]
OUTCOMES: tuple[str, ...] = get_args(Outcome)
ALPHA = 0.01
BASE = 1000.0
SCALE = 400 / math.log(10)
ROUNDS = 1000
# At most this many numbers per chunk of bootstrap rounds (resampled cell entries, or win matrices).
CHUNK_NUMBERS = 2_000_000

Array = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]
FIRST, SECOND, TIE, BOTH_BAD = range(4)  # a cell's outcome, seen from its first (alphabetically smaller) model


@dataclass(frozen=True)
class Battle:
    model_a: str
    model_b: str
    outcome: Outcome
    weight: float = 1.0

    def __post_init__(self) -> None:
        for side in (self.model_a, self.model_b):
            if not isinstance(side, str) or not side:
                raise ValueError(f"a battle's models are non-empty names, not {side!r}")
        if self.model_a == self.model_b:
            raise ValueError(f"a battle of {self.model_a!r} against itself")
        if self.outcome not in OUTCOMES:
            raise ValueError(f"unknown battle outcome {self.outcome!r}: one of {', '.join(OUTCOMES)}")
        weight = self.weight
        if isinstance(weight, bool) or not isinstance(weight, int | float) or not math.isfinite(weight) or weight < 0:
            raise ValueError(f"a battle's weight is a finite number ≥ 0, not {weight!r}")


@dataclass(frozen=True)
class ModelRating:
    name: str
    rating: float  # the fit on all battles
    lower: float  # 95% bootstrap interval
    upper: float
    rank: int  # 1 + models whose lower bound is above this upper bound
    stability: float  # share of bootstrap rounds holding its place in the point order
    top_share: float  # share of bootstrap rounds rated first (ties included)
    battles: int
    wins: int
    losses: int
    ties: int
    both_bad: int


@dataclass(frozen=True)
class Ratings:
    models: tuple[ModelRating, ...]  # by rating, best first (then by name)
    win_rate: tuple[tuple[float | None, ...], ...]  # [row][column] in the order of `models`
    votes: int
    rounds: int
    seed: int
    alpha: float

    def model(self, name: str) -> ModelRating:
        found = [m for m in self.models if m.name == name]
        if not found:
            raise KeyError(name)
        return found[0]


@dataclass(frozen=True)
class Cells:
    """The battles aggregated: one cell per distinct (first model, second model, outcome, weight), sorted."""

    names: tuple[str, ...]  # sorted
    first: Ints  # index into names; first < second
    second: Ints
    outcome: Ints  # FIRST, SECOND, TIE or BOTH_BAD
    weight: Array
    count: Ints

    @property
    def votes(self) -> int:
        return int(self.count.sum())

    def win_matrices(self, counts: Ints | None = None) -> Array:
        """Weighted win matrices (R, n, n) for cell counts (R, cells); the observed counts when None."""
        counts = self.count[None, :] if counts is None else counts
        n = len(self.names)
        decisive = self.outcome <= SECOND
        winner = np.where(self.outcome == SECOND, self.second, self.first)
        loser = np.where(self.outcome == SECOND, self.first, self.second)
        # A decisive cell adds its weight to W[winner, loser]; a tie adds half its weight each way.
        decided, tied = np.flatnonzero(decisive), np.flatnonzero(~decisive)
        cell = np.concatenate([decided, tied, tied])
        position = np.concatenate(
            [(winner * n + loser)[decided], (self.first * n + self.second)[tied], (self.second * n + self.first)[tied]]
        )
        value = np.where(decisive, self.weight, self.weight / 2)[cell]
        rounds = counts.shape[0]
        flat = (position[None, :] + (np.arange(rounds) * n * n)[:, None]).ravel()
        sums = np.bincount(flat, weights=(counts[:, cell] * value).ravel(), minlength=rounds * n * n)
        matrices: Array = np.asarray(sums, dtype=np.float64).reshape(rounds, n, n)
        return matrices


def aggregate(battles: Iterable[Battle]) -> Cells:
    """Count the battles per cell, each seen from its alphabetically first model (order-independent)."""
    flip = {"a": SECOND, "b": FIRST, "tie": TIE, "both_bad": BOTH_BAD}
    keep = {"a": FIRST, "b": SECOND, "tie": TIE, "both_bad": BOTH_BAD}
    counter: Counter[tuple[str, str, int, float]] = Counter()
    for battle in battles:
        if not isinstance(battle, Battle):
            raise ValueError(f"expected a Battle, not {type(battle).__name__}")
        a, b = battle.model_a, battle.model_b
        key = (a, b, keep[battle.outcome]) if a < b else (b, a, flip[battle.outcome])
        counter[(*key, float(battle.weight))] += 1
    names = tuple(sorted({name for key in counter for name in key[:2]}))
    index = {name: i for i, name in enumerate(names)}
    keys = sorted(counter)
    return Cells(
        names=names,
        first=np.array([index[k[0]] for k in keys], dtype=np.int64),
        second=np.array([index[k[1]] for k in keys], dtype=np.int64),
        outcome=np.array([k[2] for k in keys], dtype=np.int64),
        weight=np.array([k[3] for k in keys], dtype=np.float64),
        count=np.array([counter[k] for k in keys], dtype=np.int64),
    )


def to_rating(theta: Array) -> Array:
    result: Array = BASE + SCALE * theta
    return result


def fit(battles: Iterable[Battle], alpha: float = ALPHA) -> dict[str, float]:
    """The point ratings by model name (no bootstrap)."""
    cells = aggregate(battles)
    ratings = to_rating(bradley_terry.fit(cells.win_matrices(), alpha)[0])
    return {name: float(r) for name, r in zip(cells.names, ratings)}


def resampled_strengths(cells: Cells, rounds: int, seed: int, alpha: float) -> Array:
    """θ (rounds, n) fitted on `rounds` resamples of the battles with replacement."""
    generator = np.random.Generator(np.random.PCG64(seed))
    shares = cells.count / cells.votes
    entries = 2 * len(cells.count) + len(cells.names) ** 2
    chunk = max(1, min(rounds, CHUNK_NUMBERS // max(1, entries)))
    fitted = []
    for start in range(0, rounds, chunk):
        counts = generator.multinomial(cells.votes, shares, size=min(chunk, rounds - start)).astype(np.int64)
        fitted.append(bradley_terry.fit(cells.win_matrices(counts), alpha))
    return np.concatenate(fitted)


def places(theta: Array) -> Ints:
    """1 + the number of models rated strictly higher, per row of θ (R, n)."""
    result: Ints = 1 + (theta[:, None, :] > theta[:, :, None]).sum(axis=2)
    return result


def bootstrap(battles: Iterable[Battle], rounds: int = ROUNDS, seed: int = 0, alpha: float = ALPHA) -> Ratings:
    """Ratings, 95% intervals, ranks, stability, counts and win rates of the models in `battles`."""
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise ValueError(f"the bootstrap needs at least one round, not {rounds!r}")
    cells = aggregate(battles)
    if not cells.names:
        return Ratings(models=(), win_rate=(), votes=0, rounds=rounds, seed=seed, alpha=alpha)
    point = bradley_terry.fit(cells.win_matrices(), alpha)
    resampled = resampled_strengths(cells, rounds, seed, alpha)
    lower, upper = to_rating(np.percentile(resampled, [2.5, 97.5], axis=0))
    round_places = places(resampled)
    point_place = places(point)[0]
    stability = (round_places == point_place[None, :]).mean(axis=0)
    top_share = (round_places == 1).mean(axis=0)
    rank = 1 + (lower[None, :] > upper[:, None]).sum(axis=1)
    rating = to_rating(point[0])
    counts = _counts(cells)
    order = sorted(range(len(cells.names)), key=lambda i: (-rating[i], cells.names[i]))
    models = tuple(
        ModelRating(
            name=cells.names[i],
            rating=float(rating[i]),
            lower=float(lower[i]),
            upper=float(upper[i]),
            rank=int(rank[i]),
            stability=float(stability[i]),
            top_share=float(top_share[i]),
            battles=int(counts[i].sum()),
            wins=int(counts[i, 0]),
            losses=int(counts[i, 1]),
            ties=int(counts[i, 2]),
            both_bad=int(counts[i, 3]),
        )
        for i in order
    )
    return Ratings(models=models, win_rate=_win_rates(cells, order), votes=cells.votes, rounds=rounds, seed=seed, alpha=alpha)


def _counts(cells: Cells) -> Ints:
    """Per model: plain votes won, lost, tied, both bad (n, 4)."""
    counts = np.zeros((len(cells.names), 4), dtype=np.int64)
    first_column = np.array([0, 1, 2, 3])[cells.outcome]  # FIRST → a win for the first model
    second_column = np.array([1, 0, 2, 3])[cells.outcome]
    np.add.at(counts, (cells.first, first_column), cells.count)
    np.add.at(counts, (cells.second, second_column), cells.count)
    return counts


def _win_rates(cells: Cells, order: list[int]) -> tuple[tuple[float | None, ...], ...]:
    n = len(cells.names)
    decisive = np.zeros((n, n))
    for kind, winner, loser in ((FIRST, cells.first, cells.second), (SECOND, cells.second, cells.first)):
        chosen = cells.outcome == kind
        np.add.at(decisive, (winner[chosen], loser[chosen]), (cells.weight * cells.count)[chosen])
    met = decisive + decisive.T
    return tuple(tuple(float(decisive[i, j] / met[i, j]) if met[i, j] > 0 else None for j in order) for i in order)
