"""GraphQL types of webhooks: a hook (never its secret, shown once by createWebhook), its deliveries and attempts."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from enum import Enum
from typing import Any

import strawberry
from strawberry import relay

from server.webhooks import records


@strawberry.enum(name="WebhookEventType", description="What a webhook is told about (the payload's `type`).")
class WebhookEventType(Enum):
    EXAMPLE_CREATED = records.WebhookEventType.EXAMPLE_CREATED.value
    EXAMPLE_VALIDATED = records.WebhookEventType.EXAMPLE_VALIDATED.value
    EXAMPLE_REJECTED = records.WebhookEventType.EXAMPLE_REJECTED.value
    MODEL_DEPLOYED = records.WebhookEventType.MODEL_DEPLOYED.value
    MODEL_SCORED = records.WebhookEventType.MODEL_SCORED.value
    MODEL_FAILED = records.WebhookEventType.MODEL_FAILED.value
    ROUND_OPENED = records.WebhookEventType.ROUND_OPENED.value
    ROUND_CLOSED = records.WebhookEventType.ROUND_CLOSED.value


@strawberry.enum(name="WebhookDeliveryStatus")
class WebhookDeliveryStatus(Enum):
    PENDING = records.DeliveryStatus.PENDING.value
    DELIVERED = records.DeliveryStatus.DELIVERED.value
    FAILED = records.DeliveryStatus.FAILED.value
    CANCELLED = records.DeliveryStatus.CANCELLED.value


@strawberry.type(name="Webhook")
class WebhookType:
    id: relay.GlobalID
    url: str
    events: list[WebhookEventType]
    description: str
    enabled: bool
    consecutive_failures: int = strawberry.field(description="Deliveries in a row whose every attempt failed.")
    disabled_reason: str | None = strawberry.field(description="Why the hook is disabled (repeated failures, or an owner).")
    disabled_at: datetime | None
    previous_secret_valid_until: datetime | None = strawberry.field(
        description="After a rotation: until then deliveries are also signed with the previous secret."
    )
    created_at: datetime

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> WebhookType:
        return cls(
            id=relay.GlobalID("Webhook", str(row["id"])),
            url=row["url"],
            events=[WebhookEventType(e) for e in row["events"] if e in records.WebhookEventType._value2member_map_],
            description=row["description"],
            enabled=row["enabled"],
            consecutive_failures=row["consecutive_failures"],
            disabled_reason=row["disabled_reason"],
            disabled_at=row["disabled_at"],
            previous_secret_valid_until=row.get("previous_secret_expires_at"),
            created_at=row["created_at"],
        )


@strawberry.type(name="WebhookAttempt")
class WebhookAttemptType:
    number: int
    status_code: int | None = strawberry.field(description="The endpoint's HTTP status; null when it did not answer.")
    error: str | None
    duration_ms: float
    at: datetime


@strawberry.type(name="WebhookDelivery")
class WebhookDeliveryType:
    id: relay.GlobalID
    event_id: str = strawberry.field(description="The payload's `id`: the same on every attempt.")
    event: WebhookEventType
    status: WebhookDeliveryStatus
    attempt_count: int
    attempts: list[WebhookAttemptType] = strawberry.field(description="Every attempt, oldest first.")
    payload: str = strawberry.field(description="The JSON body, exactly as sent.")
    next_attempt_at: datetime | None
    last_status_code: int | None
    last_error: str | None
    created_at: datetime
    delivered_at: datetime | None

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> WebhookDeliveryType:
        return cls(
            id=relay.GlobalID("WebhookDelivery", str(row["id"])),
            event_id=str(row["event_id"]),
            event=WebhookEventType(row["event_type"]),
            status=WebhookDeliveryStatus(row["status"]),
            attempt_count=row["attempts"],
            attempts=[
                WebhookAttemptType(
                    number=a["number"],
                    status_code=a["status_code"],
                    error=a["error"],
                    duration_ms=a["duration_ms"],
                    at=datetime.fromisoformat(a["at"]),
                )
                for a in row["attempt_log"]
            ],
            payload=row["payload"],
            next_attempt_at=row["next_attempt_at"],
            last_status_code=row["last_status_code"],
            last_error=row["last_error"],
            created_at=row["created_at"],
            delivered_at=row["delivered_at"],
        )
