"""rotateWebhookSecret: a task's owners replace a hook's signing secret (after a leak, or as routine); the previous
one keeps signing alongside for a grace period, so the receiver can switch without losing deliveries."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

import strawberry
from strawberry import relay
from strawberry.types import Info

from server import permissions
from server.graphql.core.errors import AuthenticationError, InputError, NotFoundError, PermissionError, mutation
from server.graphql.core.guard import authorize
from server.graphql.core.relay import node_pk
from server.graphql.webhooks.types import WebhookType
from server.webhooks import service


@strawberry.type
class WebhookSecretRotated:
    webhook: WebhookType
    secret: str = strawberry.field(description="The new signing secret, shown only now: store it with the receiver.")
    previous_secret_valid_until: datetime | None = strawberry.field(
        description="Until then deliveries carry a second signature made with the previous secret; null: it "
        "stopped signing at once."
    )


RotateWebhookSecretResult = Annotated[
    WebhookSecretRotated | InputError | NotFoundError | AuthenticationError | PermissionError,
    strawberry.union("RotateWebhookSecretResult"),
]


@mutation(
    description="Task owners: a new signing secret for the webhook. The previous secret also signs deliveries for "
    "`keepPreviousHours` more hours (0 to 168; 0 after a leak), each as its own `v1=` entry."
)
async def rotate_webhook_secret(
    info: Info, webhook_id: relay.GlobalID, keep_previous_hours: int = 24
) -> RotateWebhookSecretResult:
    hook = await service.get_webhook(node_pk(webhook_id, "Webhook", "webhookId"))
    await authorize(info, permissions.manage_webhooks, hook["task"])
    rotated = await service.rotate_secret(info.context.services, hook["id"], keep_previous_hours)
    row = rotated.webhook
    return WebhookSecretRotated(
        webhook=WebhookType.from_row(row), secret=rotated.secret, previous_secret_valid_until=row["previous_secret_expires_at"]
    )
