"""The retraining gate's statistics, pure (no I/O): which validated examples are held out from every training run,
whether a new version's error on them is lower than the current version's (paired), and whether its error on the
task's scoring datasets is not worse beyond a tolerance (docs/design.md §4.8).

The paired bootstrap's 95% interval decides "lower"; the exact McNemar p-value is reported beside it."""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping, Sequence
from typing import TypedDict

import numpy as np

HELD_OUT_SHARE = 0.2  # of the validated examples, chosen by a hash of the example id (stable forever)
DEFAULT_MIN_HELD_OUT = 30  # fewer gate examples than this: "not enough held-out examples", never better
DEFAULT_SCORING_TOLERANCE = 0.01  # absolute error (0 to 1) a scoring dataset may get worse by
BOOTSTRAP_RESAMPLES = 10_000
BOOTSTRAP_SEED = 20_251_126
CONFIDENCE = 0.95
_SALT = b"dynabench retraining gate v1:"


def is_held_out(example_id: int, share: float = HELD_OUT_SHARE) -> bool:
    """The example is a gate example, never trained on: the first 8 bytes of sha256(salt + decimal id), read as a
    fraction of 2**64, fall below `share`. It depends on the id alone, so every run and every retry agrees."""
    digest = hashlib.sha256(_SALT + str(int(example_id)).encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64 < share


class PairedComparison(TypedDict):
    """Current vs new version on the same held-out examples; errors are shares in [0, 1], difference = new - current."""

    examples: int
    minimum: int
    enough: bool
    current_error: float | None
    new_error: float | None
    difference: float | None
    ci_low: float | None
    ci_high: float | None
    mcnemar_p: float | None
    only_current_wrong: int  # discordant pairs: the new version fixed these
    only_new_wrong: int  # ...and broke these
    better: bool  # enough examples and the whole 95% interval of the difference below zero


class ScoringComparison(TypedDict):
    dataset: str
    current_error: float
    new_error: float
    difference: float
    tolerance: float
    passed: bool  # difference <= tolerance


class GateDecision(TypedDict):
    passed: bool
    held_out: PairedComparison
    scoring: list[ScoringComparison]
    summary: str


def mcnemar_exact_p(only_current_wrong: int, only_new_wrong: int) -> float:
    """Two-sided exact McNemar test: the discordant pairs against Binomial(b + c, 1/2); 1.0 without any."""
    n = only_current_wrong + only_new_wrong
    if n == 0:
        return 1.0
    low = min(only_current_wrong, only_new_wrong)
    tail: float = sum(math.comb(n, k) for k in range(low + 1)) / 2**n
    return min(1.0, 2 * tail)


def bootstrap_interval(
    only_current_wrong: int, only_new_wrong: int, n: int, resamples: int = BOOTSTRAP_RESAMPLES, seed: int = BOOTSTRAP_SEED
) -> tuple[float, float]:
    """Percentile 95% interval of the paired error difference (new - current) over `resamples` resamplings of the
    n pairs with replacement. A pair's difference is -1, +1 or 0, so resampling the pairs is drawing their
    counts from a multinomial; the fixed seed makes it reproducible."""
    if n <= 0:
        return (0.0, 0.0)
    rng = np.random.default_rng(seed)
    shares = [only_current_wrong / n, only_new_wrong / n, (n - only_current_wrong - only_new_wrong) / n]
    counts = rng.multinomial(n, shares, size=resamples)
    differences = (counts[:, 1] - counts[:, 0]) / n
    tail = (1 - CONFIDENCE) / 2 * 100
    low, high = np.percentile(differences, [tail, 100 - tail])
    return (float(low), float(high))


def compare_paired(current_wrong: Sequence[bool], new_wrong: Sequence[bool], minimum: int) -> PairedComparison:
    """Both versions' errors on the same gate examples (one bool per example, in the same order)."""
    if len(current_wrong) != len(new_wrong):
        raise ValueError("the two versions must answer the same examples")
    n = len(current_wrong)
    b = sum(1 for c, w in zip(current_wrong, new_wrong, strict=True) if c and not w)
    c = sum(1 for cur, w in zip(current_wrong, new_wrong, strict=True) if w and not cur)
    enough = n >= max(1, minimum)
    if n == 0:
        return {
            "examples": 0,
            "minimum": minimum,
            "enough": False,
            "current_error": None,
            "new_error": None,
            "difference": None,
            "ci_low": None,
            "ci_high": None,
            "mcnemar_p": None,
            "only_current_wrong": 0,
            "only_new_wrong": 0,
            "better": False,
        }
    low, high = bootstrap_interval(b, c, n)
    return {
        "examples": n,
        "minimum": minimum,
        "enough": enough,
        "current_error": sum(current_wrong) / n,
        "new_error": sum(new_wrong) / n,
        "difference": (c - b) / n,
        "ci_low": low,
        "ci_high": high,
        "mcnemar_p": mcnemar_exact_p(b, c),
        "only_current_wrong": b,
        "only_new_wrong": c,
        "better": enough and high < 0,
    }


def error_of_perf(perf: float) -> float:
    """A scoring dataset's error from the evaluation's performance (a percentage: accuracy, macro-F1, SQuAD F1)."""
    return 1.0 - perf / 100.0


def compare_scoring(current: Mapping[str, float], new: Mapping[str, float], tolerance: float) -> list[ScoringComparison]:
    """Per scoring dataset both versions measured (name → performance in percent), in name order."""
    rows: list[ScoringComparison] = []
    for name in sorted(set(current) & set(new)):
        current_error, new_error = error_of_perf(current[name]), error_of_perf(new[name])
        difference = new_error - current_error
        rows.append(
            {
                "dataset": name,
                "current_error": current_error,
                "new_error": new_error,
                "difference": difference,
                "tolerance": tolerance,
                "passed": difference <= tolerance + 1e-12,
            }
        )
    return rows


def decide(held_out: PairedComparison, scoring: list[ScoringComparison]) -> GateDecision:
    """Offered as the next target only when both hold: lower held-out error (95%) and no scoring dataset worse
    beyond its tolerance."""
    passed = held_out["better"] and all(row["passed"] for row in scoring)
    return {"passed": passed, "held_out": held_out, "scoring": scoring, "summary": summarize(held_out, scoring, passed)}


def summarize(held_out: PairedComparison, scoring: list[ScoringComparison], passed: bool) -> str:
    """Both comparisons in one paragraph (the run's log entry and the gate's `summary`)."""
    n = held_out["examples"]
    if not held_out["enough"]:
        first = f"Not enough held-out examples: {n} in the gate set, at least {held_out['minimum']} needed."
    else:
        first = (
            f"Held-out error on {n} examples: current {held_out['current_error']:.1%}, new {held_out['new_error']:.1%}, "
            f"difference {held_out['difference']:+.1%} (95% CI {held_out['ci_low']:+.1%} to {held_out['ci_high']:+.1%}; "
            f"McNemar p = {held_out['mcnemar_p']:.3g}): " + ("lower." if held_out["better"] else "not lower with 95% confidence.")
        )
    if scoring:
        parts = [
            f"{row['dataset']} {row['current_error']:.1%} → {row['new_error']:.1%} ({row['difference']:+.1%}, "
            f"tolerance {row['tolerance']:.1%}: {'ok' if row['passed'] else 'worse'})"
            for row in scoring
        ]
        second = "Scoring error: " + "; ".join(parts) + "."
    else:
        second = "No scoring dataset to compare."
    verdict = "Passed the gate." if passed else "Rejected by the gate."
    return f"{verdict} {first} {second}"
