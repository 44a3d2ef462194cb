"""Rows of the training domain as typed records, its status and profile enums, and the status log entry."""

from __future__ import annotations

import time
from datetime import datetime
from enum import StrEnum
from typing import Any, TypedDict


class TrainingStatus(StrEnum):
    """queued → training → evaluating → published (passed the gate, or overridden by an owner) or rejected (the gate
    said no: loaded, not offered); or failed (a run whose job was lost is failed as abandoned), or cancelled."""

    QUEUED = "queued"
    TRAINING = "training"
    EVALUATING = "evaluating"
    PUBLISHED = "published"
    REJECTED = "rejected"
    FAILED = "failed"
    CANCELLED = "cancelled"


# A run in one of these holds the task: one retraining of a task at a time.
ACTIVE_STATUSES = (TrainingStatus.QUEUED, TrainingStatus.TRAINING, TrainingStatus.EVALUATING)


class TrainingProfile(StrEnum):
    """The recipe's size: seconds (fast) or the better model (full)."""

    FAST = "fast"
    FULL = "full"


class LogEntry(TypedDict):
    status: str
    message: str
    at: float  # seconds since the epoch


class TrainingRunRow(TypedDict):
    id: int
    task: int
    requested_by: int
    from_rounds: Any  # list[int] once decoded
    base_model: str
    profile: str
    status: str
    progress: float
    status_log: Any  # list[LogEntry] once decoded
    model_name: str
    model_version: str
    n_validated: int  # validated examples the build trained on (the training code's count; 0 until built)
    metrics: Any  # dict once decoded
    trained_on: Any  # dict once decoded: TrainedOn, or {} until built
    gate: Any  # dict once decoded: gate.GateDecision plus the current version, or {} until judged
    scoring_tolerance: float
    min_held_out: int
    include_agreed: bool
    cancel_requested: bool
    overridden_by: int | None
    override_reason: str
    overridden_at: datetime | None
    source_model: int | None  # the uploaded classifier retrained (null for a built-in model)
    new_model: int | None  # the submission the run built from it
    wall_seconds: float
    cpu_seconds: float
    created_at: datetime


class TrainedOn(TypedDict):
    """What a run's build trained on, as the training code counted it (server/modelbuild/mixing.py)."""

    validated: int  # validated examples drawn into at least one batch
    available: int  # validated examples of the chosen rounds the model could take
    read: int  # validated examples of the chosen rounds (with the agreed ones, when the run includes them)
    agreed: int  # of those read, the non-fooling examples the target agreed with that no validator checked
    held_out: int  # of those, the gate's (gate.is_held_out): never trained on
    by_label: dict[str, int]
    digest: str  # sha256 of their ids, ascending, one per line
    share: float  # share of the training draws taken from them
    min_draws: int
    seed: int  # seed rows in the training pool (after the recipe's per-label cap)
    steps: int
    dev: int  # validated examples held out as the development split (model selection): never trained on
    best_step: int | None  # the checkpoint kept (None: no development split, the last step)
    started_from: str  # "version N" (continued from the current version) or "base encoder"


class ValidatedExample(TypedDict):
    """A validated example of a task (or one the target agreed with, `agreed`): what the annotator wrote and the
    context it was written against."""

    id: int
    input: dict[str, Any]
    context: dict[str, Any]
    agreed: bool


def log_entry(status: str, message: str) -> LogEntry:
    return {"status": status, "message": message[:4000], "at": time.time()}
