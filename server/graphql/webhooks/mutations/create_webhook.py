"""createWebhook: a task's owners register an endpoint for some of the task's events; the answer holds its signing
secret, shown this once."""

from __future__ import annotations

from typing import Annotated

import strawberry
from strawberry.types import Info

from server import permissions
from server.graphql.core.errors import (
    AuthenticationError,
    ConflictError,
    InputError,
    NotFoundError,
    PermissionError,
    mutation,
)
from server.graphql.core.guard import authorize
from server.graphql.tasks.visibility import owned_task
from server.graphql.webhooks.types import WebhookEventType, WebhookType
from server.webhooks import service


@strawberry.type
class WebhookCreated:
    webhook: WebhookType
    secret: str = strawberry.field(
        description="The signing secret (X-Dynabench-Signature), shown only now: store it with the receiver."
    )


CreateWebhookResult = Annotated[
    WebhookCreated | InputError | NotFoundError | ConflictError | AuthenticationError | PermissionError,
    strawberry.union("CreateWebhookResult"),
]


@mutation(
    description="Task owners: POST signed JSON to `url` (https://) on each of the chosen events of the task "
    "(docs/api.md, Webhooks). Private and loopback addresses are refused."
)
async def create_webhook(
    info: Info, task_code: str, url: str, events: list[WebhookEventType], description: str = ""
) -> CreateWebhookResult:
    task = await owned_task(info, task_code)
    viewer = await authorize(info, permissions.manage_webhooks, task["id"])
    assert viewer is not None  # manage_webhooks refuses anonymous viewers
    created = await service.create_webhook(
        info.context.services, task["id"], viewer.user_id, url, [e.value for e in events], description
    )
    return WebhookCreated(webhook=WebhookType.from_row(created.webhook), secret=created.secret)
