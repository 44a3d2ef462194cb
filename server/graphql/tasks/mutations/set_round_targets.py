"""setRoundTargets: task owners replace the models that judge an open round (checked like createRound's)."""

from __future__ import annotations

from typing import Annotated

import strawberry
from strawberry import relay
from strawberry.types import Info

from server import permissions
from server.graphql.core.errors import (
    AuthenticationError,
    ConflictError,
    InputError,
    NotFoundError,
    PermissionError,
    mutation,
)
from server.graphql.core.guard import authorize
from server.graphql.core.relay import node_pk
from server.graphql.tasks.mutations.create_round import TargetModelInput, target_requests
from server.graphql.tasks.types import RoundNode
from server.graphql.tasks.visibility import owned_round
from server.tasks import service as tasks
from server.tasks.shared_targets import shared_target_names


@strawberry.input
class SetRoundTargetsInput:
    round_id: relay.GlobalID
    target_models: list[TargetModelInput]


@strawberry.type
class RoundTargetsSet:
    round: RoundNode


SetRoundTargetsResult = Annotated[
    RoundTargetsSet | InputError | NotFoundError | ConflictError | AuthenticationError | PermissionError,
    strawberry.union("SetRoundTargetsResult"),
]


@mutation(description="Task owners: replace the target models of an open round; examples already written keep their verdicts.")
async def set_round_targets(info: Info, input: SetRoundTargetsInput) -> SetRoundTargetsResult:
    round_row = await owned_round(info, node_pk(input.round_id, "Round", "roundId"))
    await authorize(info, permissions.manage_task, round_row["task"])
    task = await tasks.get_task(round_row["task"])
    names = [t.name.strip() for t in input.target_models]
    await authorize(info, permissions.use_target_models, task, names, await shared_target_names())
    row = await tasks.set_round_targets(round_row["id"], target_requests(input.target_models), services=info.context.services)
    return RoundTargetsSet(round=RoundNode.from_row(row))
