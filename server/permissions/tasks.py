"""Tasks, their rounds, contexts and exports."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from server.accounts.records import TokenScope
from server.accounts.viewer import Principal, Viewer
from server.core.i18n import tr
from server.permissions.base import Denied, is_task_owner, signed_in
from server.tasks.builtin import BUILTIN_CODES
from server.tasks.records import OPEN_STATUSES, TaskStatus

__all__ = [
    "TaskListScope",
    "can_view_task",
    "create_task",
    "manage_task",
    "manage_task_owners",
    "review_task",
    "task_list_scope",
    "task_owner_scope",
    "task_starts_as_proposal",
    "view_leaderboard",
    "view_task",
]


def create_task(viewer: Principal | None, code: str | None = None) -> Denied | None:
    """Any signed-in user may start a task and becomes its owner; tokens need the admin scope. The built-in
    tasks' codes are reserved for them (they own the built-in target models: target_models.py)."""
    denied = signed_in(viewer, TokenScope.ADMIN)
    if denied is None and code is not None and code.strip() in BUILTIN_CODES:
        return Denied("FORBIDDEN", tr("The code '{code}' is reserved for a built-in task.", code=code.strip()))
    return denied


def manage_task(viewer: Viewer | None, task_id: int) -> Denied | None:
    """Open rounds, add contexts, choose target models, close and export rounds: the task's owners and admins."""
    denied = signed_in(viewer, TokenScope.ADMIN)
    if denied:
        return denied
    if not is_task_owner(viewer, task_id):
        return Denied("FORBIDDEN", tr("Only the task's owners (or an admin) can do this."))
    return None


def task_owner_scope(viewer: Principal | None) -> Denied | None:
    """The scope half of `manage_task` (and of every owner rule built on it), checked before the task is read: an
    anonymous caller or a token without the admin scope gets the answer it always got, whether or not the task
    exists and whoever may see it; the visibility rule (`view_task`) comes next, the ownership check last."""
    return signed_in(viewer, TokenScope.ADMIN)


def manage_task_owners(viewer: Viewer | None, task_id: int) -> Denied | None:
    """Add or remove a task's co-owners: its owners and admins (a task always keeps one owner: the service)."""
    return manage_task(viewer, task_id)


def task_starts_as_proposal(viewer: Viewer) -> bool:
    """A non-admin's new task is a proposal, seen only by its owners and admins until an admin approves it."""
    return not viewer.is_admin


def review_task(viewer: Viewer | None) -> Denied | None:
    """Approve or reject a proposed task: admins only (API tokens need the admin scope)."""
    denied = signed_in(viewer, TokenScope.ADMIN)
    if denied is None and not (viewer is not None and viewer.is_admin):
        return Denied("FORBIDDEN", tr("Only an admin can approve or reject a task."))
    return denied


def can_view_task(viewer: Viewer | None, task: Mapping[str, Any]) -> bool:
    """Public and archived tasks: everyone. Proposed, rejected and hidden ones: their owners and admins. Everything
    under a task (its rounds, contexts, leaderboards) follows it; lists and `node(id:)` apply the same rule."""
    return task["status"] in OPEN_STATUSES or is_task_owner(viewer, task["id"])


def view_leaderboard(viewer: Viewer | None, task: Mapping[str, Any], private: bool) -> Denied | None:
    """A visible task's leaderboard: everyone, signed in or not, unless its owners made it private (its config's
    `dynascore.leaderboard`); then its owners and admins only."""
    if private and not is_task_owner(viewer, task["id"]):
        return Denied("FORBIDDEN", tr("This task's owners keep its leaderboard private."))
    return None


def view_task(viewer: Viewer | None, task: Mapping[str, Any], missing: str) -> Denied | None:
    """Reading or writing anything that names a task (by code, or by the id of a round or context of it): a task the
    viewer may not see answers exactly as a missing one, NOT_FOUND with the message the missing row gets (`missing`,
    e.g. "Task 'x'"), so hidden and proposed codes and ids cannot be told from unused ones. The owner rules
    (`manage_task`, …) apply after this one: a visible task's stranger is told FORBIDDEN."""
    if can_view_task(viewer, task):
        return None
    return Denied("NOT_FOUND", tr("{what} does not exist.", what=missing))


@dataclass(frozen=True)
class TaskListScope:
    """Which tasks the `tasks` list shows a viewer: every task (admins), else the tasks in `statuses` plus the
    viewer's own tasks in any state (hidden tasks are not listed to others, though archived ones are)."""

    everything: bool
    statuses: tuple[str, ...]
    owned: tuple[int, ...]


def task_list_scope(viewer: Viewer | None) -> TaskListScope:
    listed = (TaskStatus.PUBLIC.value, TaskStatus.ARCHIVED.value)
    if viewer is None:
        return TaskListScope(False, listed, ())
    return TaskListScope(viewer.is_admin, listed, tuple(sorted(viewer.owned_task_ids)))
