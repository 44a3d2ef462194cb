"""Crowd quality: gold items and the owners' quality view of a task (issue #17)."""

from __future__ import annotations

from server.accounts.viewer import Viewer
from server.permissions.base import Denied
from server.permissions.tasks import manage_task

__all__ = ["manage_gold", "reinstate_validator", "view_task_quality"]


def manage_gold(viewer: Viewer | None, task_id: int) -> Denied | None:
    """Mark, unmark and upload gold items: the task's owners (and admins)."""
    return manage_task(viewer, task_id)


def view_task_quality(viewer: Viewer | None, task_id: int) -> Denied | None:
    """Per-validator gold accuracy, pause state, reliability, refused duplicates: the task's owners (and admins)."""
    return manage_task(viewer, task_id)


def reinstate_validator(viewer: Viewer | None, task_id: int) -> Denied | None:
    """reinstateValidator: give a validator the gold rule paused a fresh start in the task; the task's owners (and
    admins), tokens need the admin scope."""
    return manage_task(viewer, task_id)
