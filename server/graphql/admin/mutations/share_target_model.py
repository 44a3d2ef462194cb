"""shareTargetModel: an admin shares a target model with every task owner (or stops sharing it)."""

from __future__ import annotations

from typing import Annotated

import strawberry
from strawberry.types import Info

from server import permissions
from server.graphql.core.errors import AuthenticationError, InputError, NotFoundError, PermissionError, mutation
from server.graphql.core.guard import authorize
from server.tasks import shared_targets


@strawberry.type
class TargetModelShared:
    name: str
    shared: bool


ShareTargetModelResult = Annotated[
    TargetModelShared | InputError | NotFoundError | AuthenticationError | PermissionError,
    strawberry.union("ShareTargetModelResult"),
]


@mutation(
    description="Admins: let every task owner open rounds with a model of the target Triton (a built-in task's model "
    "otherwise serves only its own task), or stop. Open rounds keep their targets; retraining stays with admins and the "
    "model's own task. Idempotent; audited."
)
async def share_target_model(info: Info, name: str, shared: bool = True) -> ShareTargetModelResult:
    viewer = await authorize(info, permissions.share_target_models)
    assert viewer is not None
    state = await shared_targets.set_shared(info.context.services, viewer, name, shared)
    return TargetModelShared(name=name.strip(), shared=state)
