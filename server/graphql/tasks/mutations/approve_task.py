"""approveTask: an admin's review of a proposed task: publish a proposed task (it becomes public)."""

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
from server.graphql.tasks.types import TaskNode
from server.tasks import lifecycle
from server.tasks import service as tasks


@strawberry.type
class TaskApproved:
    task: TaskNode


ApproveTaskResult = Annotated[
    TaskApproved | InputError | ConflictError | NotFoundError | AuthenticationError | PermissionError,
    strawberry.union("ApproveTaskResult"),
]


@mutation(description="Admins: publish a proposed task (it becomes public).")
async def approve_task(info: Info, task_code: str, note: str = "") -> ApproveTaskResult:
    viewer = await authorize(info, permissions.review_task)
    task = await tasks.get_task_by_code(task_code)
    row = await lifecycle.review_task(
        task["id"], approve=True, note=note, redis=info.context.services.redis, actor_id=viewer.user_id if viewer else None
    )
    return TaskApproved(task=TaskNode.from_row(row))
