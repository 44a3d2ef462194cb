"""Webhooks in GraphQL: the query and mutation fields."""

from __future__ import annotations

import strawberry
from strawberry import relay
from strawberry.types import Info

from server import permissions
from server.graphql.core.guard import authorize
from server.graphql.core.relay import build_connection, check_page_size, decode_cursor, node_pk
from server.graphql.tasks.visibility import owned_task
from server.graphql.webhooks.mutations.create_webhook import create_webhook
from server.graphql.webhooks.mutations.delete_webhook import delete_webhook
from server.graphql.webhooks.mutations.rotate_webhook_secret import rotate_webhook_secret
from server.graphql.webhooks.mutations.update_webhook import update_webhook
from server.graphql.webhooks.types import WebhookDeliveryType, WebhookType
from server.webhooks import service


@strawberry.type
class WebhookMutations:
    create_webhook = create_webhook
    update_webhook = update_webhook
    delete_webhook = delete_webhook
    rotate_webhook_secret = rotate_webhook_secret


@strawberry.type
class WebhookQueries:
    @strawberry.field(
        description="Task owners: the task's webhooks, oldest first (secrets are shown only at creation and rotation)."
    )
    async def webhooks(self, info: Info, task_code: str) -> list[WebhookType]:
        task = await owned_task(info, task_code)
        await authorize(info, permissions.manage_webhooks, task["id"])
        return [WebhookType.from_row(row) for row in await service.webhooks_of_task(task["id"])]

    @strawberry.field(description="Task owners: a webhook's deliveries, newest first, each with its attempts.")
    async def webhook_deliveries(
        self, info: Info, webhook_id: relay.GlobalID, first: int = 20, after: str | None = None
    ) -> relay.Connection[WebhookDeliveryType]:
        first = check_page_size(first, info.context.services.settings.page_size_max)
        after_id = decode_cursor(after)
        hook = await service.get_webhook(node_pk(webhook_id, "Webhook", "webhookId"))
        await authorize(info, permissions.manage_webhooks, hook["task"])
        rows = await service.deliveries_page(hook["id"], after_id, first + 1)
        return build_connection(rows, first, after_id, WebhookDeliveryType.from_row)
