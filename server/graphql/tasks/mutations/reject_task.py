"""rejectTask: an admin's review of a proposed task: reject a proposed task; the note tells its owners why (editing it proposes it again)."""

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
class TaskRejected:
    task: TaskNode


RejectTaskResult = Annotated[
    TaskRejected | InputError | ConflictError | NotFoundError | AuthenticationError | PermissionError,
    strawberry.union("RejectTaskResult"),
]


@mutation(description="Admins: reject a proposed task; the note tells its owners why (editing it proposes it again).")
async def reject_task(info: Info, task_code: str, note: str = "") -> RejectTaskResult:
    viewer = await authorize(info, permissions.review_task)
    task = await tasks.get_task_by_code(task_code)
    row = await lifecycle.review_task(
        task["id"], approve=False, note=note, redis=info.context.services.redis, actor_id=viewer.user_id if viewer else None
    )
    return TaskRejected(task=TaskNode.from_row(row))
