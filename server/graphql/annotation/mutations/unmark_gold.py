"""unmarkGold: a task owner turns a gold item back into an ordinary example (its graded answers stay)."""

from __future__ import annotations

from typing import Annotated

import strawberry
from strawberry import relay
from strawberry.types import Info

from server import permissions
from server.accounts.viewer import Viewer
from server.annotation.quality import gold
from server.annotation.validation import lookup
from server.core.errors import not_found
from server.core.i18n import tr
from server.graphql.annotation.types import ExampleNode
from server.graphql.core.errors import AuthenticationError, InputError, NotFoundError, PermissionError, mutation
from server.graphql.core.guard import authorize
from server.graphql.core.relay import node_pk
from server.tasks.service import get_round


@strawberry.type
class GoldUnmarked:
    example: ExampleNode


UnmarkGoldResult = Annotated[
    GoldUnmarked | InputError | NotFoundError | PermissionError | AuthenticationError, strawberry.union("UnmarkGoldResult")
]


async def gold_target(viewer: Viewer, example_id: relay.GlobalID) -> tuple[dict, int]:
    """The example and its task; NOT_FOUND unless the viewer owns the task (no leak of other tasks' examples)."""
    example = await lookup.example(node_pk(example_id, "Example", "exampleId"))
    if example is None:
        raise not_found(tr("That example"))
    task_id = (await get_round(example["round"]))["task"]
    if permissions.manage_gold(viewer, task_id) is not None:
        raise not_found(tr("That example"))
    return dict(example), task_id


@mutation(description="Task owners: make a gold item an ordinary example again.")
async def unmark_gold(info: Info, example_id: relay.GlobalID) -> UnmarkGoldResult:
    viewer = await authorize(info, permissions.validate, True)  # an owner operation: tokens need the admin scope
    example, task_id = await gold_target(viewer, example_id)
    await gold.unmark_gold(viewer, example, task_id)
    return GoldUnmarked(example=ExampleNode.from_row(example))
