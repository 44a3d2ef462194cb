"""Task visibility for what GraphQL reads: the rule (`permissions.view_task`, applied by server/tasks/visibility.py)
on a task by code, on a round, and on the tasks behind rows (lists and `node(id:)` alike). The viewer's account is
read only when a task is not open to everyone."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from strawberry.types import Info

from server import permissions
from server.core import events
from server.graphql.core.guard import authorize_principal
from server.tasks import visibility
from server.tasks.records import RoundRow, TaskRow


async def visible_task_ids(info: Info, tasks: Iterable[Mapping[str, Any]]) -> set[int]:
    """The ids among these task rows that the viewer may see."""
    rows = list(tasks)
    if all(permissions.can_view_task(None, t) for t in rows):
        return {t["id"] for t in rows}
    viewer = await info.context.viewer()
    return {t["id"] for t in rows if permissions.can_view_task(viewer, t)}


async def visible_task(info: Info, code: str) -> TaskRow:
    """The task by code, or NOT_FOUND when there is none or the viewer may not see it (a hidden task is not told
    apart from a missing one). Everything that names a task by code reads it here, owner operations included."""
    return await visibility.visible_task_by_code(info.context.viewer, code)


async def owned_task(info: Info, code: str) -> TaskRow:
    """For owner operations: the scope check first (`permissions.task_owner_scope`: anonymous callers are told to sign
    in, task or not), then the task as `visible_task` reads it; the resolver then checks ownership."""
    await authorize_principal(info, permissions.task_owner_scope)
    return await visible_task(info, code)


async def owned_round(info: Info, round_id: int) -> RoundRow:
    """`owned_task` for an owner operation on a round."""
    await authorize_principal(info, permissions.task_owner_scope)
    return await visible_round(info, round_id)


async def visible_round(info: Info, round_id: int) -> RoundRow:
    """The round, or NOT_FOUND for a missing round and for a round of a task the viewer may not see."""
    return await visibility.visible_round(info.context.viewer, round_id)


async def visible_rows(info: Info, rows: Iterable[Mapping[str, Any] | None], task_of: str = "task") -> list[Any]:
    """Rows (rounds, or anything with a task id in `task_of`) whose task the viewer may see; None for the others."""
    rows = list(rows)
    task_ids = {row[task_of] for row in rows if row}
    tasks = [t for t in await info.context.loaders.task.load_many(list(task_ids)) if t]
    visible = await visible_task_ids(info, tasks)
    return [row if row and row[task_of] in visible else None for row in rows]


async def check_round_visible(info: Info, round_id: int) -> dict[str, Any]:
    """The round's task ({"id", "status"}); NOT_FOUND for a missing round, and for a round of a task the viewer may
    not see."""
    return await visibility.check_round_visible(info.context.viewer, round_id)


def is_task_change(event: Mapping[str, Any], task_id: int) -> bool:
    """A tasks-channel event about this task (events.TaskListChanged: reviewed, shown, hidden or archived, an owner
    added or removed). Feeds that depend on seeing a task also listen on events.TASKS_CHANNEL for these."""
    return event.get("kind") == events.TaskListChanged.kind and int(event.get("task") or 0) == task_id


async def recheck_task_visible(info: Info, task_id: int, missing: str) -> None:
    """After such a change, with the viewer's account read afresh (a long-lived feed holds the ownership it started
    with): NOT_FOUND, which ends the feed, once the viewer may no longer see the task."""
    info.context.forget_viewer()
    await visibility.recheck_task_visible(info.context.viewer, task_id, missing)
