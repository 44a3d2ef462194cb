"""updateWebhook: a task's owners change a hook (only the arguments given), or disable and enable it again."""

from __future__ import annotations

from typing import Annotated, Any

import strawberry
from strawberry import relay
from strawberry.types import Info

from server import permissions
from server.graphql.core.errors import AuthenticationError, InputError, NotFoundError, PermissionError, mutation
from server.graphql.core.guard import authorize
from server.graphql.core.relay import node_pk
from server.graphql.webhooks.types import WebhookEventType, WebhookType
from server.webhooks import service


@strawberry.type
class WebhookSaved:
    webhook: WebhookType


UpdateWebhookResult = Annotated[
    WebhookSaved | InputError | NotFoundError | AuthenticationError | PermissionError,
    strawberry.union("UpdateWebhookResult"),
]


@mutation(
    description="Task owners: change a webhook (only the arguments given). `enabled: true` re-enables one that was "
    "disabled after repeated failures and starts its failure count afresh."
)
async def update_webhook(
    info: Info,
    webhook_id: relay.GlobalID,
    url: str | None = strawberry.UNSET,
    events: list[WebhookEventType] | None = strawberry.UNSET,
    description: str | None = strawberry.UNSET,
    enabled: bool | None = strawberry.UNSET,
) -> UpdateWebhookResult:
    hook = await service.get_webhook(node_pk(webhook_id, "Webhook", "webhookId"))
    await authorize(info, permissions.manage_webhooks, hook["task"])
    changes: dict[str, Any] = {}
    for name, value in (("url", url), ("description", description), ("enabled", enabled)):
        if value is not strawberry.UNSET and value is not None:
            changes[name] = value
    if events is not strawberry.UNSET and events is not None:
        changes["events"] = [e.value for e in events]
    row = await service.update_webhook(info.context.services, hook["id"], changes)
    return WebhookSaved(webhook=WebhookType.from_row(row))
