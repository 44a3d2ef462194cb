"""Crowd quality: gold items and the owners' quality view of a task (issue #17)."""

from __future__ import annotations

from server.accounts.viewer import Viewer
from server.permissions.base import Denied
from server.permissions.tasks import manage_task

__all__ = ["manage_gold", "view_task_quality"]


def manage_gold(viewer: Viewer | None, task_id: int) -> Denied | None:
    """Mark, unmark and upload gold items: the task's owners (and admins)."""
    return manage_task(viewer, task_id)


def view_task_quality(viewer: Viewer | None, task_id: int) -> Denied | None:
    """Per-validator gold accuracy, pause state, reliability, refused duplicates: the task's owners (and admins)."""
    return manage_task(viewer, task_id)
