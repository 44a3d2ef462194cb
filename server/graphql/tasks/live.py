"""`taskListChanged`: tell task lists to refresh when a task is created, edited, reviewed, shown, hidden or
archived, or a round opens or closes (events.TaskListChanged on the tasks channel)."""

from __future__ import annotations

from collections.abc import AsyncGenerator
from enum import Enum

import strawberry
from strawberry.types import Info

from server import permissions
from server.core import events
from server.graphql.core.context import Loaders
from server.graphql.core.guard import authorize_principal
from server.graphql.tasks.types import TaskNode
from server.graphql.tasks.visibility import visible_task_ids
from server.tasks import queries as task_queries


@strawberry.enum(description="How the task list changed; LISTENING first, once the feed is live.")
class TaskListChangeKind(Enum):
    LISTENING = "listening"
    CREATED = "created"
    UPDATED = "updated"
    APPROVED = "approved"
    REJECTED = "rejected"
    VISIBILITY = "visibility"
    ROUND_OPENED = "round_opened"
    ROUND_CLOSED = "round_closed"


@strawberry.type
class TaskListChange:
    change: TaskListChangeKind
    task: TaskNode | None = strawberry.field(
        description="The task as it is now, when the viewer may see it (null for LISTENING, and for a task now "
        "hidden from the viewer: re-read the list)."
    )


@strawberry.type
class TaskListSubscriptions:
    @strawberry.subscription(description="LISTENING once live, then each change to the tasks and their rounds.")
    async def task_list_changed(self, info: Info) -> AsyncGenerator[TaskListChange, None]:
        await authorize_principal(info, permissions.read_public)
        hub = info.context.services.hub
        async with hub.listen(events.TASKS_CHANNEL) as changes:
            yield TaskListChange(change=TaskListChangeKind.LISTENING, task=None)
            async for event in changes:
                try:
                    change = TaskListChangeKind(event.get("change"))
                except ValueError:
                    continue
                task_id = int(event["task"])
                # The feed lives long: what the connection's loaders and viewer hold (a task's current round, the
                # tasks the viewer owns) may be what changed, so each change is read afresh.
                info.context.loaders = Loaders()
                info.context.forget_viewer()
                row = await hub.shared(
                    ("task_list", task_id, event.get("_sequence")), lambda task_id=task_id: task_queries.task_by_id(task_id)
                )
                visible = row is not None and bool(await visible_task_ids(info, [row]))
                yield TaskListChange(change=change, task=TaskNode.from_row(row) if visible and row else None)
