"""Tasks, their rounds, contexts and exports."""

from __future__ import annotations

from server.accounts.records import TokenScope
from server.accounts.viewer import Principal, Viewer
from server.permissions.base import Denied, is_task_owner, signed_in
from server.tasks.builtin import BUILTIN_CODES

__all__ = ["create_task", "manage_task"]


def create_task(viewer: Principal | None, code: str | None = None) -> Denied | None:
    """Any signed-in user may start a task and becomes its owner; tokens need the admin scope. The built-in
    tasks' codes are reserved for them (they own the built-in target models: target_models.py)."""
    denied = signed_in(viewer, TokenScope.ADMIN)
    if denied is None and code is not None and code.strip() in BUILTIN_CODES:
        return Denied("FORBIDDEN", f"The code '{code.strip()}' is reserved for a built-in task.")
    return denied


def manage_task(viewer: Viewer | None, task_id: int) -> Denied | None:
    """Open rounds, add contexts, choose target models, close and export rounds: the task's owners and admins."""
    denied = signed_in(viewer, TokenScope.ADMIN)
    if denied:
        return denied
    if not is_task_owner(viewer, task_id):
        return Denied("FORBIDDEN", "Only the task's owners (or an admin) can do this.")
    return None
