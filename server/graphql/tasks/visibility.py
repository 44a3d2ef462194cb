"""Applying `permissions.can_view_task` to what GraphQL reads: a task by code, and the tasks behind rounds and
contexts (lists and `node(id:)` alike). The viewer's account is read only when a task is not open to everyone."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from strawberry.types import Info

from server import permissions
from server.core.errors import not_found
from server.core.i18n import tr
from server.tasks import queries
from server.tasks.records import TaskRow
from server.tasks.service import get_task_by_code


async def visible_task_ids(info: Info, tasks: Iterable[Mapping[str, Any]]) -> set[int]:
    """The ids among these task rows that the viewer may see."""
    rows = list(tasks)
    if all(permissions.can_view_task(None, t) for t in rows):
        return {t["id"] for t in rows}
    viewer = await info.context.viewer()
    return {t["id"] for t in rows if permissions.can_view_task(viewer, t)}


async def visible_task(info: Info, code: str) -> TaskRow:
    """The task by code, or NOT_FOUND when there is none or the viewer may not see it (a hidden task is not told
    apart from a missing one)."""
    task = await get_task_by_code(code)
    if not await visible_task_ids(info, [task]):
        raise not_found(tr("Task '{code}'", code=code))
    return task


async def visible_rows(info: Info, rows: Iterable[Mapping[str, Any] | None], task_of: str = "task") -> list[Any]:
    """Rows (rounds, or anything with a task id in `task_of`) whose task the viewer may see; None for the others."""
    rows = list(rows)
    task_ids = {row[task_of] for row in rows if row}
    tasks = [t for t in await info.context.loaders.task.load_many(list(task_ids)) if t]
    visible = await visible_task_ids(info, tasks)
    return [row if row and row[task_of] in visible else None for row in rows]


async def check_round_visible(info: Info, round_id: int) -> None:
    """NOT_FOUND for a missing round, and for a round of a task the viewer may not see."""
    task = await queries.task_of_round(round_id)
    if task is None or not await visible_task_ids(info, [task]):
        raise not_found(tr("That round"))
