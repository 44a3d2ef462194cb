"""createRound: task owners open the task's next round with its target models at exact versions (the open one closes)."""

from __future__ import annotations

from typing import Annotated

import strawberry
from strawberry.types import Info

from server import permissions
from server.graphql.core.errors import AuthenticationError, InputError, NotFoundError, PermissionError, mutation
from server.graphql.core.guard import authorize
from server.graphql.tasks.types import RoundNode
from server.tasks import service as tasks


@strawberry.input
class TargetModelInput:
    name: str
    version: str = strawberry.field(
        default="", description="The exact version; empty: the newest the target Triton serves now (pinned when the round opens)."
    )


@strawberry.input
class CreateRoundInput:
    task_code: str
    target_models: list[TargetModelInput]


@strawberry.type
class RoundCreated:
    round: RoundNode


CreateRoundResult = Annotated[
    RoundCreated | InputError | NotFoundError | AuthenticationError | PermissionError, strawberry.union("CreateRoundResult")
]


@mutation()
async def create_round(info: Info, input: CreateRoundInput) -> CreateRoundResult:
    task = await tasks.get_task_by_code(input.task_code)
    await authorize(info, permissions.manage_task, task["id"])
    await authorize(info, permissions.use_target_models, task, [t.name.strip() for t in input.target_models])
    targets = [{"name": t.name, "version": t.version} for t in input.target_models]
    services = info.context.services
    row = await tasks.create_round(task["code"], targets, redis=services.redis, triton=services.triton)
    return RoundCreated(round=RoundNode.from_row(row))
