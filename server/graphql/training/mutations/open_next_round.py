"""openNextRound: task owners open the next round with a published version of the target model."""

from __future__ import annotations

from typing import Annotated

import strawberry
from strawberry.types import Info

from server import permissions
from server.graphql.core.errors import AuthenticationError, ConflictError, InputError, NotFoundError, PermissionError, mutation
from server.graphql.core.guard import authorize
from server.graphql.tasks.types import RoundNode
from server.graphql.tasks.visibility import owned_task
from server.training import service as training


@strawberry.type
class NextRoundOpened:
    round: RoundNode


OpenNextRoundResult = Annotated[
    NextRoundOpened | InputError | NotFoundError | ConflictError | AuthenticationError | PermissionError,
    strawberry.union("OpenNextRoundResult"),
]


@mutation(
    description=(
        "Task owners: close the current round and open the next one, judged by `modelVersion` of the target "
        "model (a published training run's version; `model-<id>` for a retrained uploaded classifier, judged then by "
        "that new model), with the current round's contexts."
    )
)
async def open_next_round(info: Info, task_code: str, model_version: str) -> OpenNextRoundResult:
    task = await owned_task(info, task_code)
    await authorize(info, permissions.open_next_round, task["id"])
    row = await training.open_next_round(info.context.services, task_code, model_version)
    return NextRoundOpened(round=RoundNode.from_row(row))
