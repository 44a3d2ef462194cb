"""approveTask / rejectTask: an admin's review of a proposed task: publish it (it becomes public), or reject it with a
note that tells its owners why (editing it proposes it again)."""

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
from server.tasks.records import TaskRow


@strawberry.type
class TaskApproved:
    task: TaskNode


@strawberry.type
class TaskRejected:
    task: TaskNode


_ERRORS = InputError | ConflictError | NotFoundError | AuthenticationError | PermissionError
ApproveTaskResult = Annotated[TaskApproved | _ERRORS, strawberry.union("ApproveTaskResult")]
RejectTaskResult = Annotated[TaskRejected | _ERRORS, strawberry.union("RejectTaskResult")]


async def _review(info: Info, task_code: str, note: str, approve: bool) -> TaskRow:
    viewer = await authorize(info, permissions.review_task)
    task = await tasks.get_task_by_code(task_code)
    return await lifecycle.review_task(
        task["id"], approve=approve, note=note, services=info.context.services, actor_id=viewer.user_id if viewer else None
    )


@mutation(description="Admins: publish a proposed task (it becomes public).")
async def approve_task(info: Info, task_code: str, note: str = "") -> ApproveTaskResult:
    return TaskApproved(task=TaskNode.from_row(await _review(info, task_code, note, approve=True)))


@mutation(description="Admins: reject a proposed task; the note tells its owners why (editing it proposes it again).")
async def reject_task(info: Info, task_code: str, note: str = "") -> RejectTaskResult:
    return TaskRejected(task=TaskNode.from_row(await _review(info, task_code, note, approve=False)))
