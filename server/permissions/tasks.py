"""Tasks, their rounds, contexts and exports."""

from __future__ import annotations

from server.accounts.records import TokenScope
from server.accounts.viewer import Principal, Viewer
from server.permissions.base import Denied, is_task_owner, signed_in

__all__ = ["create_task", "manage_task"]


def create_task(viewer: Principal | None) -> Denied | None:
    # Any signed-in user may start a task and becomes its owner; tokens need the admin scope.
    return signed_in(viewer, TokenScope.ADMIN)


def manage_task(viewer: Viewer | None, task_id: int) -> Denied | None:
    """Open rounds, add contexts, choose target models, close and export rounds: the task's owners and admins."""
    denied = signed_in(viewer, TokenScope.ADMIN)
    if denied:
        return denied
    if not is_task_owner(viewer, task_id):
        return Denied("FORBIDDEN", "Only the task's owners (or an admin) can do this.")
    return None
