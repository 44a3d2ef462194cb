"""Typed rows and values of webhooks: the event types, a delivery's status, and the rows that cross layers."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any, TypedDict


class WebhookEventType(StrEnum):
    """What a hook may subscribe to; the value is the payload's `type` and the X-Dynabench-Event header."""

    EXAMPLE_CREATED = "example.created"
    EXAMPLE_VALIDATED = "example.validated"
    EXAMPLE_REJECTED = "example.rejected"
    MODEL_DEPLOYED = "model.deployed"
    MODEL_SCORED = "model.scored"
    MODEL_FAILED = "model.failed"
    ROUND_OPENED = "round.opened"
    ROUND_CLOSED = "round.closed"


class DeliveryStatus(StrEnum):
    PENDING = "pending"  # an attempt is queued (the first, or a retry after a failure)
    DELIVERED = "delivered"  # a 2xx answer
    FAILED = "failed"  # every attempt failed
    CANCELLED = "cancelled"  # the hook was disabled or deleted before it could be delivered


class WebhookRow(TypedDict):
    id: int
    task: int
    url: str
    events: list[str]
    description: str
    secret_salt: str  # the secret is derived from it (server/webhooks/signing.py); never shown after creation
    previous_secret_salt: str | None  # a rotated-out secret's, signing too until previous_secret_expires_at
    previous_secret_expires_at: datetime | None
    enabled: bool
    consecutive_failures: int
    disabled_reason: str | None
    disabled_at: datetime | None
    created_by: int
    created_at: datetime


class DeliveryRow(TypedDict):
    id: int
    webhook: int
    event_id: Any  # uuid.UUID: the payload's `id`, the same on every attempt
    event_type: str
    payload: str  # the exact body sent on every attempt
    status: str
    attempts: int
    next_attempt_at: datetime | None
    last_status_code: int | None
    last_error: str | None
    created_at: datetime
    delivered_at: datetime | None


class AttemptRow(TypedDict):
    id: int
    delivery: int
    number: int
    status_code: int | None
    error: str | None
    duration_ms: float
    at: datetime
