"""Rows of the evaluation domain as typed records, and its status enums (the values stored in the database)."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any, TypedDict


class ModelStatus(StrEnum):
    """A researcher's model: uploaded → deploying → deployed → evaluating → evaluated, or failed. A model
    evaluated while its task has no scoring dataset is not_ranked (nothing to rank it on) until one is added."""

    UPLOADED = "uploaded"
    DEPLOYING = "deploying"
    DEPLOYED = "deployed"
    EVALUATING = "evaluating"
    EVALUATED = "evaluated"
    NOT_RANKED = "not_ranked"
    FAILED = "failed"


# Loaded in the submissions Triton: a new scoring dataset evaluates these models, and deploying them again is a no-op.
LIVE_STATUSES = (ModelStatus.DEPLOYED, ModelStatus.EVALUATING, ModelStatus.EVALUATED, ModelStatus.NOT_RANKED)

# The status message of a model evaluated on 0 datasets (docs/design.md §4.4), never "Evaluated".
NOT_RANKED_MESSAGE = "Not ranked: no scoring dataset"


class DatasetAccess(StrEnum):
    """Scoring datasets rank the leaderboard; hidden ones are seen by the task's owners (and admins) only."""

    SCORING = "scoring"
    STANDARD = "standard"
    HIDDEN = "hidden"


class Perturbation(StrEnum):
    """A dataset example as uploaded, or one of its generated robustness / fairness copies."""

    ORIGINAL = "original"
    ROBUSTNESS = "robustness"
    FAIRNESS = "fairness"


# A generative task's dataset rows: {"uid", "prompt", "reference", "tags"}, stored as fields {"prompt"} and gold the
# reference reply (server/evaluation/datasets/service.py).
GENERATIVE_PROMPT, GENERATIVE_REFERENCE = "prompt", "reference"


class ModelRow(TypedDict):
    id: int
    task: int
    owner: int
    name: str
    card: Any  # dict once decoded; the text of the jsonb where a row comes straight from an insert
    status: str
    status_log: Any  # list of {"at", "status", "message"} once decoded
    triton_name: str
    triton_version: str
    published: bool
    anonymous: bool
    created_at: datetime
    taken_down_at: datetime | None  # an admin took it down (server/evaluation/models/takedown.py)
    taken_down_reason: str
    retrained_from: int | None  # the submission a retraining run built this one from (server/training/submissions.py)


class ResidentModelRow(TypedDict):
    """A submission loaded in the submissions Triton, as the residency policy sees it."""

    id: int
    triton_name: str
    status: str
    changed_at: datetime  # its last status change (its evaluation, for an idle model)
    in_the_loop: bool  # a target of an open round


class DatasetRow(TypedDict):
    id: int
    task: int
    round: int | None
    name: str
    access: str
    weight: float
    created_at: datetime


class DatasetExampleRow(TypedDict):
    id: int
    dataset: int
    uid: str
    fields: dict[str, Any]
    gold: Any
    tags: list[str]
    perturbation: str
    original_uid: str | None
    collected_duplicate: Any  # {"example", "kind", "similarity"} when the row duplicates a collected example


class ScoreRow(TypedDict):
    id: int
    model: int
    dataset: int
    perf: float
    perf_by_tag: Any
    throughput: float | None
    memory_gb: float | None
    robustness: float | None
    fairness: float | None
    created_at: datetime


class LeaderboardConfigRow(TypedDict):
    id: int
    task: int
    owner: int
    name: str
    metric_weights: Any
    dataset_weights: Any
    created_at: datetime
