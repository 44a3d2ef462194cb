"""The retraining recipe's pure parts (no I/O, no torch; docs/design.md §4.8): a retrained classifier continues from
the current version's weights at a lower learning rate, on a replay of the seed data plus the validated examples
outside a development split, for a number of steps scaled with those examples; the development split (and a slice
of the seed data, the retention check) picks the best checkpoint and stops the run early.

`DYNABENCH_RETRAIN_RECIPE=scratch` keeps the recipe before this one (from the base encoder, the profile's steps,
no development split) for the ablation (bench/retrain_loop.py --recipe); the default is `continue`.
"""

from __future__ import annotations

import hashlib
import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

RECIPE_ENV = "DYNABENCH_RETRAIN_RECIPE"
RECIPES = ("continue", "scratch")
DEFAULT_RECIPE = "continue"

# Of the validated examples outside the gate's share: the development split, by a hash of the example id with a
# salt of its own (independent of the gate's). It is never trained on.
DEV_SHARE = 0.12
DEV_MIN = 8  # a smaller split (fewer than ~65 trainable examples) is noise: no split, no early stopping
_DEV_SALT = b"dynabench retraining dev v1:"


@dataclass(frozen=True)
class ContinueConfig:
    """A profile's retraining schedule (the profile's TrainConfig gives batch size, length, layers and seed-data cap)."""

    epochs: float  # planned passes over the validated training rows...
    min_steps: int  # ...but at least this many steps...
    max_steps: int  # ...and at most this many (a run still lasts until every validated example was drawn once)
    lr_factor: float  # encoder learning rate = the profile's × this when continuing from the current version
    head_lr: float  # the (already trained) head's learning rate when continuing
    evals: int  # development evaluations planned over the run
    patience: int  # evaluations without a better score that end the run
    seed_dev: int  # seed rows kept out of the replay pool as the retention check
    max_class_weight: float = 3.0  # a validated label's loss weight is at most this (and at least its inverse)


CONTINUE_PROFILES: dict[str, ContinueConfig] = {
    "fast": ContinueConfig(epochs=5, min_steps=40, max_steps=240, lr_factor=0.5, head_lr=3e-4, evals=8, patience=3, seed_dev=150),
    "full": ContinueConfig(
        epochs=5, min_steps=100, max_steps=900, lr_factor=0.5, head_lr=3e-4, evals=10, patience=3, seed_dev=300
    ),
}


def recipe_name(value: str | None) -> str:
    """The recipe an environment value asks for (empty: the default); an unknown name is an error."""
    name = (value or DEFAULT_RECIPE).strip().lower()
    if name not in RECIPES:
        raise ValueError(f"{RECIPE_ENV}={value!r}: expected one of {', '.join(RECIPES)}")
    return name


def dev_fraction(key: str) -> float:
    """A stable number in [0, 1) for an example: the first 8 bytes of sha256(salt + key) over 2**64."""
    return int.from_bytes(hashlib.sha256(_DEV_SALT + key.encode()).digest()[:8], "big") / 2**64


def in_dev_split(example_id: int, share: float = DEV_SHARE) -> bool:
    """A database example's side of the split (when the split is made at all: `split_dev`)."""
    return dev_fraction(str(int(example_id))) < share


def dev_key(row: Mapping[str, Any]) -> str:
    """An example's id when it has one (a database row), else its text fields and label."""
    if row.get("example_id") is not None:
        return str(int(row["example_id"]))
    return "row:" + "\x1f".join(f"{k}={row[k]}" for k in sorted(row) if k != "example_id")


def split_dev(
    rows: Sequence[dict[str, Any]], share: float = DEV_SHARE, minimum: int = DEV_MIN
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(training rows, development rows): a row is in the development split when dev_fraction(dev_key) < share; a
    split smaller than `minimum` is not made (every row trains)."""
    dev = [row for row in rows if dev_fraction(dev_key(row)) < share]
    if len(dev) < minimum:
        return list(rows), []
    return [row for row in rows if dev_fraction(dev_key(row)) >= share], dev


def capped_size(labels: Iterable[str], cap: int | None) -> int:
    """Rows left after the recipe's per-label cap."""
    counts = Counter(labels)
    return sum(counts.values()) if cap is None else sum(min(n, cap) for n in counts.values())


def planned_steps(n_validated: int, share: float, batch_size: int, cfg: ContinueConfig) -> int:
    """`cfg.epochs` passes over the validated training rows at their share of each batch, within [min, max] steps."""
    if n_validated <= 0 or share <= 0:
        return cfg.min_steps
    steps = math.ceil(cfg.epochs * n_validated / (share * batch_size))
    return max(cfg.min_steps, min(cfg.max_steps, steps))


def eval_every(steps: int, evals: int) -> int:
    """Steps between development evaluations: `evals` of them over the planned run (at least every step)."""
    return max(1, math.ceil(steps / max(1, evals)))


def class_weights(labels: Sequence[str], cap: float) -> dict[str, float]:
    """Loss weights per label of the validated training rows that balance their classes: n / (k · count), clipped
    to [1/cap, cap], then scaled so that their mean over the rows is 1 (the validated share of the loss is unchanged)."""
    counts = Counter(labels)
    if not counts:
        return {}
    n, k = sum(counts.values()), len(counts)
    raw = {label: min(cap, max(1 / cap, n / (k * count))) for label, count in counts.items()}
    scale = n / sum(raw[label] * count for label, count in counts.items())
    return {label: round(raw[label] * scale, 4) for label in sorted(raw)}


def selection_score(validated_accuracy: float | None, seed_accuracy: float | None) -> float:
    """What a checkpoint is chosen by: the mean of its accuracy on the development split and on the seed retention
    rows (whichever are measured)."""
    values = [v for v in (validated_accuracy, seed_accuracy) if v is not None]
    return sum(values) / len(values) if values else 0.0


class EarlyStop:
    """The best score seen and its step; `stop` once `patience` evaluations in a row did not beat it."""

    def __init__(self, patience: int) -> None:
        self.patience = patience
        self.best_step: int | None = None
        self.best_score = -math.inf
        self.since_best = 0

    def observe(self, step: int, score: float) -> bool:
        """Record an evaluation; True when it is the new best (ties keep the earlier step)."""
        if score > self.best_score + 1e-12:
            self.best_step, self.best_score, self.since_best = step, score, 0
            return True
        self.since_best += 1
        return False

    @property
    def stop(self) -> bool:
        return self.best_step is not None and self.since_best >= self.patience
