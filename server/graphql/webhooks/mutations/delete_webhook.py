"""deleteWebhook: a task's owners remove a hook, with its delivery log."""

from __future__ import annotations

from typing import Annotated

import strawberry
from strawberry import relay
from strawberry.types import Info

from server import permissions
from server.graphql.core.errors import AuthenticationError, InputError, NotFoundError, PermissionError, mutation
from server.graphql.core.guard import authorize
from server.graphql.core.relay import node_pk
from server.webhooks import service


@strawberry.type
class WebhookDeleted:
    id: relay.GlobalID


DeleteWebhookResult = Annotated[
    WebhookDeleted | InputError | NotFoundError | AuthenticationError | PermissionError,
    strawberry.union("DeleteWebhookResult"),
]


@mutation(description="Task owners: delete a webhook and its delivery log; queued attempts are dropped.")
async def delete_webhook(info: Info, webhook_id: relay.GlobalID) -> DeleteWebhookResult:
    hook = await service.get_webhook(node_pk(webhook_id, "Webhook", "webhookId"))
    await authorize(info, permissions.manage_webhooks, hook["task"])
    await service.delete_webhook(info.context.services, hook["id"])
    return WebhookDeleted(id=relay.GlobalID("Webhook", str(hook["id"])))
