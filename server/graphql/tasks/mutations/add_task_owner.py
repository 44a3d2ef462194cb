"""addTaskOwner: a task's owners (and admins) make another user a co-owner."""

from __future__ import annotations

from typing import Annotated

import strawberry
from strawberry.types import Info

from server import permissions
from server.graphql.core.errors import AuthenticationError, InputError, NotFoundError, PermissionError, mutation
from server.graphql.core.guard import authorize
from server.tasks import lifecycle
from server.tasks import service as tasks


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
    task = await tasks.get_task_by_code(task_code)
    await authorize(info, permissions.manage_task_owners, task["id"])
    owners = await lifecycle.add_owner(task["id"], username)
    return TaskOwnerAdded(task_code=task["code"], owners=[o["username"] for o in owners])
