"""updateTask: the task's owners (and admins) edit its name, description, instructions and config; every config
change is a new version, and one that would break the open round is refused with the field named."""

from __future__ import annotations

from typing import Annotated

import strawberry
from strawberry.scalars import JSON
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
from server.graphql.tasks.types import TaskNode
from server.graphql.tasks.visibility import owned_task
from server.tasks import lifecycle


@strawberry.input
class UpdateTaskInput:
    task_code: str
    name: str | None = None
    description: str | None = None
    instructions: str | None = strawberry.field(default=None, description="Markdown shown to workers before their first example.")
    config: JSON | None = strawberry.field(
        default=None,
        description="The whole new config document: additive changes (new input fields or labels, settings) are "
        "accepted and apply from the next round on; removing or renaming a field or label in use, adding a context "
        "field or changing the kind is refused while a round is open.",
    )


@strawberry.type
class TaskUpdated:
    task: TaskNode


UpdateTaskResult = Annotated[
    TaskUpdated | InputError | ConflictError | NotFoundError | AuthenticationError | PermissionError,
    strawberry.union("UpdateTaskResult"),
]


@mutation(description="Task owners: edit a task's name, description, instructions or config (a new config version).")
async def update_task(info: Info, input: UpdateTaskInput) -> UpdateTaskResult:
    task = await owned_task(info, input.task_code)
    viewer = await authorize(info, permissions.manage_task, task["id"])
    edit = lifecycle.TaskEdit(
        name=input.name,
        description=input.description,
        instructions=input.instructions,
        config=lifecycle.UNCHANGED if input.config is None else input.config,
    )
    row = await lifecycle.update_task(
        task["id"], viewer.user_id, edit, redis=info.context.services.redis, services=info.context.services
    )
    return TaskUpdated(task=TaskNode.from_row(row))
