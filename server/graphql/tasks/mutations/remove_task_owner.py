"""removeTaskOwner: a task's owners (and admins) remove a co-owner; a task always keeps one owner."""

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
from server.tasks import lifecycle


@strawberry.type
class TaskOwnerRemoved:
    task_code: str
    owners: list[str] = strawberry.field(description="The task's owners' usernames now.")


RemoveTaskOwnerResult = Annotated[
    TaskOwnerRemoved | InputError | ConflictError | NotFoundError | AuthenticationError | PermissionError,
    strawberry.union("RemoveTaskOwnerResult"),
]


@mutation(description="Task owners: remove an owner (oneself too); the last owner cannot be removed.")
async def remove_task_owner(info: Info, task_code: str, username: str) -> RemoveTaskOwnerResult:
    task = await owned_task(info, task_code)
    await authorize(info, permissions.manage_task_owners, task["id"])
    owners = await lifecycle.remove_owner(task["id"], username, redis=info.context.services.redis)
    info.context.forget_viewer()  # the viewer may have removed themselves
    return TaskOwnerRemoved(task_code=task["code"], owners=[o["username"] for o in owners])
