"""addTaskOwner: a task's owners (and admins) make another user a co-owner."""

from __future__ import annotations

from typing import Annotated

import strawberry
from strawberry.types import Info

from server import permissions
from server.graphql.core.errors import AuthenticationError, InputError, NotFoundError, PermissionError, mutation
from server.graphql.core.guard import authorize
from server.graphql.tasks.visibility import owned_task
from server.tasks import lifecycle


@strawberry.type
class TaskOwnerAdded:
    task_code: str
    owners: list[str] = strawberry.field(description="The task's owners' usernames now.")


AddTaskOwnerResult = Annotated[
    TaskOwnerAdded | InputError | NotFoundError | AuthenticationError | PermissionError,
    strawberry.union("AddTaskOwnerResult"),
]


@mutation(description="Task owners: make another user a co-owner of the task (again: nothing changes).")
async def add_task_owner(info: Info, task_code: str, username: str) -> AddTaskOwnerResult:
    task = await owned_task(info, task_code)
    await authorize(info, permissions.manage_task_owners, task["id"])
    owners = await lifecycle.add_owner(task["id"], username, redis=info.context.services.redis)
    return TaskOwnerAdded(task_code=task["code"], owners=[o["username"] for o in owners])
