"""Typed rows and the kinds of notifications."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any, TypedDict


class NotificationKind(StrEnum):
    MODEL_DEPLOYED = "model_deployed"
    MODEL_SCORED = "model_scored"
    MODEL_FAILED = "model_failed"
    MODEL_TAKEN_DOWN = "model_taken_down"
    EXAMPLE_VALIDATED = "example_validated"
    EXAMPLE_REJECTED = "example_rejected"
    BADGE_EARNED = "badge_earned"
    TASK_APPROVED = "task_approved"
    TASK_REJECTED = "task_rejected"


class EmailState(StrEnum):
    """The email copy of a notification: none (not opted in), queued, sent, skipped (no verified address or no
    mail configured when it was due), failed (the SMTP server refused it too many times)."""

    NONE = "none"
    QUEUED = "queued"
    SENT = "sent"
    SKIPPED = "skipped"
    FAILED = "failed"


class NotificationRow(TypedDict):
    id: int
    recipient: int
    kind: str
    subject: str  # what it is about, e.g. "model:12"; unique per (recipient, kind, subject)
    data: Any  # the facts the text is written from (names, status, message), decoded
    created_at: datetime
    read_at: datetime | None
    email_state: str
    email_attempts: int
