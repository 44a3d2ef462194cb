"""What a retrained version trains on: the seed data mixed with every validated example (docs/design.md §4.8).

Pure (no I/O, no torch). The recipe's per-label cap (`TrainConfig.max_per_class`) applies to the seed data
only; validated examples are never capped or subsampled. Each training batch carries a fixed share of
validated examples, max(their natural share, VALIDATED_SHARE), spread evenly over the run (for a handful of
examples, less: none is planned more than MAX_DRAWS draws), and the run lasts at least until every validated
example has been drawn once (more steps than the recipe plans when there are many). The draws are counted
per example: that count, not the number read, is what a run reports.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections import Counter
from collections.abc import Sequence

# Validated examples' share of the training draws when they are fewer than that naturally. A few hundred
# examples against thousands of seed rows would be ~3-6% of the batches and barely move the model; much
# more than a third lets a few hundred adversarial rows, each repeated many times, crowd out the seed's
# coverage (held-out accuracy on the seed falls). 30% keeps 70% of every batch for the seed.
VALIDATED_SHARE = 0.3
# ... but a handful of examples is not repeated hundreds of times (4 examples at 30% of the full profile's
# 9,600 draws would be 720 draws each): the floor is lowered so that none is planned more than this.
MAX_DRAWS = 20


def validated_share(n_seed: int, n_validated: int, planned_draws: int | None = None) -> float:
    """The share of training draws taken from validated examples: their natural share, at least VALIDATED_SHARE
    (at least MAX_DRAWS draws each of `planned_draws`, when that is less)."""
    if n_validated <= 0:
        return 0.0
    if n_seed <= 0:
        return 1.0
    floor = VALIDATED_SHARE
    if planned_draws:
        floor = min(floor, MAX_DRAWS * n_validated / planned_draws)
    return max(n_validated / (n_seed + n_validated), floor)


def validated_slots(share: float, batch_size: int, steps: int) -> int:
    """Validated rows in the first `steps` batches (cumulative, so the share holds over any prefix of the run)."""
    return math.floor(share * batch_size * steps + 1e-9)


def steps_to_cover(n_validated: int, share: float, batch_size: int) -> int:
    """The fewest steps whose batches hold at least `n_validated` validated rows (each example drawn once)."""
    if n_validated <= 0:
        return 0
    steps = max(1, math.ceil(n_validated / (share * batch_size)))
    while validated_slots(share, batch_size, steps) < n_validated:
        steps += 1
    while steps > 1 and validated_slots(share, batch_size, steps - 1) >= n_validated:
        steps -= 1
    return steps


class Cycle:
    """Indices 0..n-1 in reshuffled passes: `take(k)` returns the next k (a pass is used up before a new one)."""

    def __init__(self, n: int, rng: random.Random) -> None:
        self.n, self.rng = n, rng
        self.order: list[int] = []

    def take(self, k: int) -> list[int]:
        if k <= 0 or self.n == 0:
            return []
        while len(self.order) < k:
            fresh = list(range(self.n))
            self.rng.shuffle(fresh)
            self.order.extend(fresh)
        out, self.order = self.order[:k], self.order[k:]
        return out


class BatchMixer:
    """Deterministic batches of seed and validated row indices, with each validated example's draw count.

    `steps` is the recipe's planned steps, or more if that many batches could not draw every validated
    example once. Without validated examples the seed batches are exactly the recipe's of `build-models`.
    """

    def __init__(self, n_seed: int, n_validated: int, batch_size: int, planned_steps: int, rng: random.Random, seed: int):
        self.batch_size = batch_size
        self.share = validated_share(n_seed, n_validated, planned_steps * batch_size)
        self.steps = max(planned_steps, steps_to_cover(n_validated, self.share, batch_size))
        self.seed = Cycle(n_seed, rng)
        self.validated = Cycle(n_validated, random.Random(f"validated:{seed}"))
        self.draws = [0] * n_validated
        self.step = 0
        self._drawn = 0

    def next_batch(self) -> tuple[list[int], list[int]]:
        """(seed indices, validated indices) of the next batch."""
        self.step += 1
        k = validated_slots(self.share, self.batch_size, self.step) - validated_slots(self.share, self.batch_size, self.step - 1)
        validated = self.validated.take(k)
        for i in validated:
            if self.draws[i] == 0:
                self._drawn += 1
            self.draws[i] += 1
        return self.seed.take(self.batch_size - len(validated)), validated

    @property
    def covered(self) -> bool:
        """Every validated example has been drawn at least once."""
        return self._drawn == len(self.draws)


def ids_digest(ids: Sequence[int]) -> str:
    """SHA-256 (hex) of the example ids, ascending, one decimal id per line (no trailing newline)."""
    return hashlib.sha256("\n".join(str(i) for i in sorted(ids)).encode()).hexdigest()


def validated_summary(rows: Sequence[dict], draws: Sequence[int], share: float) -> dict:
    """What the training code trained on: the validated rows drawn at least once, per label, their ids and digest."""
    trained = [(row, n) for row, n in zip(rows, draws, strict=True) if n > 0]
    ids = sorted(int(row["example_id"]) for row, _ in trained if row.get("example_id") is not None)
    by_label = Counter(str(row["label"]) for row, _ in trained if "label" in row)
    return {
        "trained": len(trained),
        "available": len(rows),
        "by_label": dict(sorted(by_label.items())),
        "share": round(share, 4),
        "min_draws": min((n for _, n in trained), default=0),
        "max_draws": max((n for _, n in trained), default=0),
        "digest": ids_digest(ids),
        "example_ids": ids,
    }
