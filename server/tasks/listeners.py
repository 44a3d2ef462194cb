"""What the tasks domain's live views do when a proposal is reviewed (registered by server/listeners.py)."""

from __future__ import annotations

from server.core import events
from server.core.services import Services
from server.domain_events.dispatcher import listens
from server.tasks.domain_events import TaskReviewed


@listens(TaskReviewed)
async def refresh_task_views(services: Services, event: TaskReviewed) -> None:
    """Whoever follows the task's life, and the task list."""
    decided = events.TaskApproved if event.approved else events.TaskRejected
    change = "approved" if event.approved else "rejected"
    await events.publish(
        services.redis,
        decided(task_id=event.task_id, note=event.note),
        events.TaskListChanged(task_id=event.task_id, change=change),
    )
