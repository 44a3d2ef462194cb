"""setTaskVisibility: a task's owners (and admins) show, hide or archive an approved task."""

from __future__ import annotations

from enum import Enum
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
from server.graphql.tasks.visibility import owned_task
from server.tasks import lifecycle


@strawberry.enum(description="PUBLIC (listed), HIDDEN (not listed; owners and admins only) or ARCHIVED (read-only).")
class TaskVisibility(Enum):
    PUBLIC = "PUBLIC"
    HIDDEN = "HIDDEN"
    ARCHIVED = "ARCHIVED"


@strawberry.type
class TaskVisibilityChanged:
    task: TaskNode


SetTaskVisibilityResult = Annotated[
    TaskVisibilityChanged | InputError | ConflictError | NotFoundError | AuthenticationError | PermissionError,
    strawberry.union("SetTaskVisibilityResult"),
]


@mutation(
    description="Task owners: make an approved task public, hidden (not listed; only its owners and admins reach "
    "it) or archived (read-only: its open round closes, no new rounds, examples or votes; data and exports stay)."
)
async def set_task_visibility(info: Info, task_code: str, visibility: TaskVisibility) -> SetTaskVisibilityResult:
    task = await owned_task(info, task_code)
    viewer = await authorize(info, permissions.manage_task, task["id"])
    admin_id = viewer.user_id if viewer is not None and viewer.is_admin else None  # recorded in the admins' audit log
    row = await lifecycle.set_visibility(task["id"], visibility.value, redis=info.context.services.redis, admin_id=admin_id)
    return TaskVisibilityChanged(task=TaskNode.from_row(row))
