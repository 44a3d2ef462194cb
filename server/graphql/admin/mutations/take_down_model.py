"""takeDownModel: an admin takes a submission down: unpublished for good, off every leaderboard and open round."""

from __future__ import annotations

from typing import Annotated

import strawberry
from strawberry import relay
from strawberry.types import Info

from server import permissions
from server.admin import service as admin
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
from server.graphql.evaluation.types import ModelNode


@strawberry.type
class ModelTakenDown:
    model: ModelNode


TakeDownModelResult = Annotated[
    ModelTakenDown | InputError | ConflictError | NotFoundError | AuthenticationError | PermissionError,
    strawberry.union("TakeDownModelResult"),
]


@mutation(
    description="Admins: take a submission down with a reason its owner reads: unpublished for good, removed from "
    "leaderboards and from open rounds' targets (refused while it is a round's only target). Idempotent."
)
async def take_down_model(info: Info, model_id: relay.GlobalID, reason: str) -> TakeDownModelResult:
    viewer = await authorize(info, permissions.administer)
    assert viewer is not None
    row = await admin.take_down_model(info.context.services, viewer, node_pk(model_id, "Model", "modelId"), reason)
    return ModelTakenDown(model=ModelNode.from_row(row))
