"""The reliability outcome rule (docs/design.md §4.2): a task whose config says `validation.rule: "reliability"`
decides its examples with reliability-weighted votes (reliability_model.py) instead of N matching votes.

The Dawid–Skene model is fitted from the task's vote history rows: the newest `HISTORY_CAP` user-mode votes of the
task (a bounded window, so one fit stays a few milliseconds however long the task runs). Fits are kept per worker
process under a version key, the history's (vote count, newest vote id): a vote inserted or deleted moves the key
and the next aggregation refits, so a cached model is never stale; the aggregation jobs of one batch (the sweeper, or
jobs that run between two votes) share one fit. The example's outcome comes from `weighted_outcome`: the first
confident prefix of its votes decides, and after 2N − 1 user votes the most probable label decides (a tie: flagged,
to the owners), so no example stays open forever. An outcome once decided is stored and not re-decided when the
model later moves (owner votes still decide at once)."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping

from server.annotation.quality import queries
from server.annotation.quality.reliability_model import (
    VALIDATION_LABELS,
    ReliabilityModel,
    VoteRecord,
    WeightedVote,
    fit,
    weighted_outcome,
)
from server.tasks.config import ValidationConfig

HISTORY_CAP = 20_000  # the newest votes of the task the model is fitted from
_MODELS: dict[int, tuple[tuple[int, int], ReliabilityModel]] = {}  # task → (history version, model)
_MAX_CACHED_TASKS = 64


async def task_model(task_id: int) -> ReliabilityModel:
    """The task's Dawid–Skene fit over its newest votes; refitted whenever the vote history moved."""
    version = await queries.vote_history_version(task_id)
    cached = _MODELS.get(task_id)
    if cached is not None and cached[0] == version:
        return cached[1]
    rows = await queries.vote_history(task_id, HISTORY_CAP)
    model = fit_votes((row["example"], row["user"], row["label"]) for row in rows)
    if len(_MODELS) >= _MAX_CACHED_TASKS and task_id not in _MODELS:
        _MODELS.pop(next(iter(_MODELS)))
    _MODELS[task_id] = (version, model)
    return model


def fit_votes(votes: Iterable[tuple[Hashable, Hashable, str]]) -> ReliabilityModel:
    """(example, validator, label) rows → the model over the three validation labels."""
    return fit((VoteRecord(item, worker, label) for item, worker, label in votes), VALIDATION_LABELS)


def reliable_outcome(votes: Iterable[Mapping], model: ReliabilityModel, validation: ValidationConfig) -> str:
    """validated | rejected | flagged | open from the example's counted votes (in the order cast)."""
    weighted = [WeightedVote(v["user"], v["label"], v["mode"]) for v in votes]
    return weighted_outcome(weighted, model, validation.reliability_threshold, validation.num_matching_validations)


def validator_reliability(model: ReliabilityModel, user_id: int) -> float | None:
    """A validator's estimated accuracy in the task, None if the fitted window has none of their votes."""
    known = model.workers.get(user_id)
    return None if known is None else known.accuracy
