"""Rows of the tasks domain (tasks, rounds, contexts) as typed records, and how a context is chosen."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any, NotRequired, TypedDict


class ContextStrategy(StrEnum):
    """How the next context is picked for an annotator (the GraphQL enum's names are the values)."""

    LEAST_USED = "LEAST_USED"
    LEAST_FOOLED = "LEAST_FOOLED"
    UNIFORM = "UNIFORM"


class TaskStatus(StrEnum):
    """A task's life: a non-admin's new task is a PROPOSED one (seen only by its owners and admins) until an admin
    approves it (PUBLIC) or rejects it (REJECTED, with a note; editing it proposes it again). An approved task may be
    HIDDEN (not listed, reachable only by its owners and admins) or ARCHIVED (listed, read-only: no new rounds,
    examples or votes; its data and exports stay)."""

    PROPOSED = "PROPOSED"
    REJECTED = "REJECTED"
    PUBLIC = "PUBLIC"
    HIDDEN = "HIDDEN"
    ARCHIVED = "ARCHIVED"


# Everyone sees these; the others only the task's owners and admins.
OPEN_STATUSES = frozenset({TaskStatus.PUBLIC, TaskStatus.ARCHIVED})
# What setTaskVisibility may choose (an approved task's states).
VISIBILITIES = frozenset({TaskStatus.PUBLIC, TaskStatus.HIDDEN, TaskStatus.ARCHIVED})


class TargetModelRef(TypedDict):
    """A target model a round asks: its Triton name and exact version; a submission's id too when the
    model is a researcher's submission (served by the sandboxed submissions Triton)."""

    name: str
    version: str
    model_id: NotRequired[int]
    endpoint: NotRequired[str]  # an LLM endpoint (server/generation/endpoints/targets.py): name is "endpoint:<it>"


class TaskRow(TypedDict):
    id: int
    code: str
    name: str
    description: str
    config: Any  # the jsonb's text as Piccolo reads it, or the decoded document (load_config takes either)
    active: bool
    current_round: int
    created_at: datetime
    status: str  # TaskStatus
    review_note: str
    instructions: str
    config_version: int


class RoundRow(TypedDict):
    id: int
    task: int
    number: int
    target_models: Any  # list[TargetModelRef], or its jsonb text
    start_at: datetime
    end_at: datetime | None
    total_collected: int
    total_fooled: int
    total_validated: int
    total_validated_fooled: int
    config_version: int


class ConfigVersionRow(TypedDict):
    task: int
    version: int
    config: Any  # the decoded document
    created_by: int | None
    created_at: datetime


class ContextRow(TypedDict):
    id: int
    round: int
    fields: Any  # dict[str, str], or its jsonb text
    tag: str | None
    total_used: int
    total_fooled: int
    last_used_at: datetime | None
    created_at: datetime


class NewContext(TypedDict):
    """A checked context about to be inserted."""

    fields: dict[str, str]
    tag: str | None


class TaskTotals(TypedDict):
    collected: int
    fooled: int
    validated_fooled: int
