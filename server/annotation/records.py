"""Rows of the annotation domain as they cross layers (TypedDicts), and its status values (StrEnums)."""

from __future__ import annotations

import uuid
from datetime import datetime
from enum import StrEnum
from typing import Any, TypedDict


class ExampleStatus(StrEnum):
    PENDING = "pending"  # the model has not answered yet
    AWAITING_CLAIM = "awaiting_claim"  # fooling ask_user: the model answered; its author has not said if it was wrong
    OPEN = "open"  # awaiting validation
    CLOSED = "closed"  # did not fool, and the task does not validate non-fooling examples
    VALIDATED = "validated"
    REJECTED = "rejected"
    FLAGGED = "flagged"  # for the task's owners to review


class ReplyStatus(StrEnum):
    """A generative target's reply to one message (server/annotation/conversations/)."""

    GENERATING = "generating"
    DONE = "done"
    STOPPED = "stopped"  # its author stopped it; the text so far is kept
    FAILED = "failed"  # the target stopped answering; the text so far is kept, and it may be retried


class BattleChoice(StrEnum):
    """A battle's vote (server/annotation/battles/): the side that answered better (a, b, c, d by position), a tie, or
    both (all) bad."""

    A = "a"
    B = "b"
    C = "c"
    D = "d"
    TIE = "tie"
    BOTH_BAD = "both_bad"


class Verdict(StrEnum):
    FOOLED = "FOOLED"
    NOT_FOOLED = "NOT_FOOLED"
    PENDING = "PENDING"
    AWAITING_CLAIM = "AWAITING_CLAIM"  # the annotator says whether the model got it wrong (claimFooled)


class ValidationLabel(StrEnum):
    CORRECT = "correct"
    INCORRECT = "incorrect"
    FLAGGED = "flagged"


class ValidationMode(StrEnum):
    USER = "user"
    OWNER = "owner"


class ExampleRow(TypedDict):
    """A row of `examples` (jsonb columns decoded)."""

    id: int
    client_id: uuid.UUID
    round: int
    context: int
    user: int
    input: dict[str, Any]
    model_output: dict[str, Any] | None
    model_name: str
    model_version: str
    fooled: bool | None
    status: str  # an ExampleStatus value
    retracted: bool
    flagged: bool
    flag_reason: str
    explanation: str
    time_spent_ms: float | None
    pending_reason: str
    check_attempts: int
    next_check_at: datetime | None
    created_at: datetime
    claim_client_id: uuid.UUID | None  # fooling ask_user: the client UUID of the author's claim (`fooled` holds it)
    follow_up_client_id: uuid.UUID | None  # answerFollowUp: the client UUID of the answers joined to `input`


class SettledExample(TypedDict):
    """What a pending example's settlement returns (enough to announce it)."""

    id: int
    round: int
    context: int
    user: int
    fooled: bool | None
    status: str


class ClaimedPending(TypedDict):
    """A pending example leased for one re-check."""

    id: int
    round: int
    context: int
    user: int
    input: Any  # jsonb, decoded by the re-check
    model_output: Any  # generative examples: the reply's record, waiting for its judge's scores
    model_name: str
    model_version: str
    check_attempts: int


class ValidationRow(TypedDict):
    """A row of `validations`."""

    id: int
    example: int
    user: int
    label: str  # a ValidationLabel value
    mode: str  # a ValidationMode value
    note: str
    fields: dict[str, Any]  # the task's validator fields answered with this vote
    aggregated: bool
    created_at: datetime


class VoteRow(TypedDict):
    """The part of a vote the aggregation replays."""

    label: str
    mode: str
    user: int
    aggregated: bool
