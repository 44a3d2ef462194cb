"""markGold: a task owner makes an example a gold item with its right answer (validators' answers on it are graded)."""

from __future__ import annotations

from typing import Annotated

import strawberry
from strawberry import relay
from strawberry.types import Info

from server import permissions
from server.annotation.quality import gold
from server.graphql.annotation.mutations.unmark_gold import gold_target
from server.graphql.annotation.types import ExampleNode, ValidationLabel
from server.graphql.core.errors import AuthenticationError, ConflictError, InputError, NotFoundError, PermissionError, mutation
from server.graphql.core.guard import authorize


@strawberry.type
class GoldMarked:
    example: ExampleNode
    answer: ValidationLabel


MarkGoldResult = Annotated[
    GoldMarked | InputError | NotFoundError | ConflictError | PermissionError | AuthenticationError,
    strawberry.union("MarkGoldResult"),
]


@mutation(description="Task owners: make an example a gold item with its right answer (CORRECT, INCORRECT or FLAGGED).")
async def mark_gold(info: Info, example_id: relay.GlobalID, answer: ValidationLabel) -> MarkGoldResult:
    viewer = await authorize(info, permissions.validate, True)  # an owner operation: tokens need the admin scope
    example, task_id = await gold_target(viewer, example_id)
    await gold.mark_gold(viewer, example, task_id, answer.value)
    return GoldMarked(example=ExampleNode.from_row(example), answer=answer)
