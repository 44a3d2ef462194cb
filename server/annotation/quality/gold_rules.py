"""Gold items in validation: mixing them into the queue, each validator's gold accuracy, and the pause rule.
Pure, no I/O; randomness comes from a `random.Random` the caller passes in (seed it for a reproducible queue).

**Mixing.** Before each queue item, `next_is_gold(rng, rate)` draws once: gold with probability `rate` (0 ≤ rate ≤ 1).
`pick_gold(rng, gold_ids, answered)` then picks uniformly among the gold items the validator has not answered yet
(None when there is none left: serve an ordinary item). The served item must look like any other (same type, same
fields, an ordinary id); only the service knows it is gold.

**Gold accuracy.** A gold answer is right when the vote's label equals the gold item's right answer (`correct` or
`incorrect`; a `flagged` vote on gold is wrong unless the gold answer is `flagged`). Accuracy = right / answered,
None before the first answer.

**Pause rule.** A validator is paused for the task when they have answered at least `min_answers` gold items and
their accuracy is strictly below `threshold` (exact rational comparison: 0.8 means 4/5). The rule is a pure function
of all their gold answers in the task, so it is re-evaluated after every gold answer; a paused validator gets no more
queue items, so they stay paused until an owner reinstates them. While paused, their votes on examples that are still
open stop counting: the aggregation replays an example's votes without them (decided examples keep their outcome).
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable, Sequence, Set
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeVar

from server.core.errors import ConfigError
from server.core.i18n import tr

MAX_MIN_ANSWERS = 1000
T = TypeVar("T", bound=Hashable)


@dataclass(frozen=True)
class GoldAnswer:
    gold_label: str  # the item's right answer
    label: str  # the validator's vote

    @property
    def right(self) -> bool:
        return self.label == self.gold_label


@dataclass(frozen=True)
class GoldStats:
    answered: int
    right: int

    @property
    def accuracy(self) -> float | None:
        return self.right / self.answered if self.answered else None


@dataclass(frozen=True)
class PauseRule:
    threshold: float  # minimum accuracy, 0..1
    min_answers: int  # gold answers needed before the rule may pause anyone, ≥ 1

    def __post_init__(self) -> None:
        if isinstance(self.threshold, bool) or not 0.0 <= float(self.threshold) <= 1.0:
            raise ConfigError("gold.threshold", tr("The gold accuracy threshold is between 0 and 1."))
        if (
            isinstance(self.min_answers, bool)
            or not isinstance(self.min_answers, int)
            or not 1 <= self.min_answers <= MAX_MIN_ANSWERS
        ):
            raise ConfigError(
                "gold.minAnswers", tr("The minimum number of gold answers is between 1 and {limit}.", limit=MAX_MIN_ANSWERS)
            )


def check_rate(rate: float) -> float:
    """The gold rate itself, or ConfigError."""
    if isinstance(rate, bool) or not isinstance(rate, int | float) or not 0.0 <= float(rate) <= 1.0:
        raise ConfigError("gold.rate", tr("The gold rate is a fraction between 0 and 1."))
    return float(rate)


def next_is_gold(rng: random.Random, rate: float) -> bool:
    """Whether the next queue item should be gold: one draw from `rng`, true with probability `rate`."""
    return rng.random() < check_rate(rate)


def pick_gold(rng: random.Random, gold_ids: Sequence[T], answered: Set[T]) -> T | None:
    """A gold item the validator has not answered, uniformly at random; None when they have answered them all."""
    fresh = [g for g in gold_ids if g not in answered]
    return rng.choice(fresh) if fresh else None


def gold_stats(answers: Iterable[GoldAnswer]) -> GoldStats:
    answered = right = 0
    for answer in answers:
        answered += 1
        right += answer.right
    return GoldStats(answered, right)


def is_paused(stats: GoldStats, rule: PauseRule) -> bool:
    """Paused: at least `min_answers` gold answers and accuracy strictly below `threshold`."""
    if stats.answered < rule.min_answers:
        return False
    return Fraction(stats.right, stats.answered) < Fraction(str(float(rule.threshold)))
