"""createTask: any signed-in user starts a task from a config document and becomes its owner; a non-admin's task is a
proposal until an admin approves it (approveTask)."""

from __future__ import annotations

from typing import Annotated

import strawberry
from strawberry.scalars import JSON
from strawberry.types import Info

from server import permissions
from server.core.rate_limits import Action
from server.graphql.core.errors import AuthenticationError, ConflictError, InputError, PermissionError, RateLimitedError, mutation
from server.graphql.core.guard import authorize, throttled
from server.graphql.tasks.types import TaskNode
from server.tasks import service as tasks


@strawberry.input
class CreateTaskInput:
    code: str
    name: str
    config: JSON = strawberry.field(description="The task configuration document (see docs/task-config.md).")
    description: str = ""
    instructions: str = strawberry.field(default="", description="Markdown shown to workers before their first example.")


@strawberry.type
class TaskCreated:
    task: TaskNode


CreateTaskResult = Annotated[
    TaskCreated | InputError | ConflictError | RateLimitedError | AuthenticationError | PermissionError,
    strawberry.union("CreateTaskResult"),
]


@mutation(
    description="Start a task and own it; a non-admin's task is a proposal (seen only by its owners and admins) until an admin approves it."
)
async def create_task(info: Info, input: CreateTaskInput) -> CreateTaskResult:
    viewer = await authorize(info, permissions.create_task, input.code)
    # Limited per account and address; a refused config or a taken code does not use up the allowance.
    async with throttled(info, Action.CREATE_TASK, viewer.user_id, free_if=("INVALID_INPUT", "CONFLICT")):
        row = await tasks.create_task(
            viewer.user_id,
            input.code,
            input.name,
            input.description,
            input.config,
            proposed=permissions.task_starts_as_proposal(viewer),
            instructions=input.instructions,
            redis=info.context.services.redis,
            services=info.context.services,
        )
    info.context.forget_viewer()  # the viewer now owns one more task
    return TaskCreated(task=TaskNode.from_row(row))
