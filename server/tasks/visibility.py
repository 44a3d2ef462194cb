"""A task or round read as the viewer may see it: the one rule (`permissions.view_task`) applied to a read by code or
id, for services and resolvers that name a task. An unseen task answers as a missing one (NOT_FOUND, same message)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from server import permissions
from server.accounts.viewer import Viewer
from server.core.errors import ServiceError, not_found
from server.core.i18n import tr
from server.tasks import queries
from server.tasks.records import RoundRow, TaskRow
from server.tasks.service import get_round, get_task_by_code

# The viewer, or how to read it: GraphQL reads the account only for a task that is not open to everyone.
ViewerSource = Viewer | None | Callable[[], Awaitable[Viewer | None]]


async def viewer_sees_task(viewer: ViewerSource, task: Any) -> bool:
    """`permissions.can_view_task` for a task row (any mapping with its id and status)."""
    if permissions.can_view_task(None, task):  # open to everyone: the viewer's account need not be read
        return True
    return permissions.can_view_task(await viewer() if callable(viewer) else viewer, task)


async def check_task_visible(viewer: ViewerSource, task: Any, missing: str) -> None:
    """Raise what a missing row answers (`missing`: the subject of its NOT_FOUND message) when the viewer may not
    see the task."""
    if permissions.can_view_task(None, task):
        return
    denied = permissions.view_task(await viewer() if callable(viewer) else viewer, task, missing)
    if denied is not None:
        raise ServiceError(denied.code, denied.message)


async def visible_task_by_code(viewer: ViewerSource, code: str) -> TaskRow:
    """The task by code; NOT_FOUND when there is none or the viewer may not see it."""
    task = await get_task_by_code(code)
    await check_task_visible(viewer, task, tr("Task '{code}'", code=code))
    return task


async def check_round_visible(viewer: ViewerSource, round_id: int) -> dict[str, Any]:
    """The round's task ({"id", "status"}: one small read, nextContext's hot path); NOT_FOUND when there is no such
    round or the viewer may not see its task."""
    task = await queries.task_of_round(round_id)
    if task is None:
        raise not_found(tr("That round"))
    await check_task_visible(viewer, task, tr("That round"))
    return task


async def visible_round(viewer: ViewerSource, round_id: int) -> RoundRow:
    """The round by id; NOT_FOUND when there is none or the viewer may not see its task."""
    await check_round_visible(viewer, round_id)
    return await get_round(round_id)


async def recheck_task_visible(viewer: ViewerSource, task_id: int, missing: str) -> None:
    """A live feed's re-check after its task changed (reviewed, shown or hidden, an owner added or removed): the task
    read afresh; NOT_FOUND, which ends the feed, once the viewer may no longer see it."""
    task = await queries.task_by_id(task_id)
    if task is None:
        raise not_found(missing)
    await check_task_visible(viewer, task, missing)
