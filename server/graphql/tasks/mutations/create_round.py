"""createRound: task owners open the task's next round with its target models at exact versions (the open one closes)."""

from __future__ import annotations

from typing import Annotated

import strawberry
from strawberry import relay
from strawberry.types import Info

from server import permissions
from server.graphql.core.errors import AuthenticationError, ConflictError, InputError, NotFoundError, PermissionError, mutation
from server.graphql.core.guard import authorize
from server.graphql.core.relay import node_pk
from server.graphql.tasks.types import RoundNode
from server.graphql.tasks.visibility import owned_task
from server.tasks import service as tasks
from server.tasks.shared_targets import shared_target_names
from server.tasks.targets import TargetRequest


@strawberry.input(
    description="A built-in (or operator's) model of the target Triton by name, a submission by modelId, or (generative "
    "tasks) an LLM endpoint by its name."
)
class TargetModelInput:
    name: str = strawberry.field(default="", description="A model of the target Triton.")
    version: str = strawberry.field(
        default="", description="The exact version; empty: the newest the target Triton serves now (pinned when the round opens)."
    )
    model_id: relay.GlobalID | None = strawberry.field(
        default=None, description="An evaluated, published submission of the task (served by the sandboxed submissions Triton)."
    )
    endpoint: str = strawberry.field(
        default="", description="A registered LLM endpoint (generative tasks); the round lists it as `endpoint:<name>`."
    )


def target_requests(inputs: list[TargetModelInput]) -> list[TargetRequest]:
    return [
        TargetRequest(
            name=t.name,
            version=t.version,
            model_id=node_pk(t.model_id, "Model", f"targetModels.{i}.modelId") if t.model_id is not None else None,
            endpoint=t.endpoint,
        )
        for i, t in enumerate(inputs)
    ]


@strawberry.input
class CreateRoundInput:
    task_code: str
    target_models: list[TargetModelInput]


@strawberry.type
class RoundCreated:
    round: RoundNode


CreateRoundResult = Annotated[
    RoundCreated | InputError | NotFoundError | ConflictError | AuthenticationError | PermissionError,
    strawberry.union("CreateRoundResult"),
]


@mutation()
async def create_round(info: Info, input: CreateRoundInput) -> CreateRoundResult:
    task = await owned_task(info, input.task_code)
    await authorize(info, permissions.manage_task, task["id"])
    names = [t.name.strip() for t in input.target_models]
    await authorize(info, permissions.use_target_models, task, names, await shared_target_names())
    row = await tasks.create_round(task["code"], target_requests(input.target_models), services=info.context.services)
    return RoundCreated(round=RoundNode.from_row(row))
