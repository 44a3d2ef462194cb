"""publishModel: a model's owner (or an admin) shows it on the public leaderboard, or hides it again."""

from __future__ import annotations

from typing import Annotated

import strawberry
from strawberry import relay
from strawberry.types import Info

from server import permissions
from server.evaluation.models import service as models_service
from server.graphql.core.errors import AuthenticationError, InputError, NotFoundError, PermissionError, mutation
from server.graphql.core.guard import authorize
from server.graphql.core.relay import node_pk
from server.graphql.evaluation.types import ModelNode


@strawberry.type
class ModelChanged:
    model: ModelNode


PublishModelResult = Annotated[
    ModelChanged | InputError | NotFoundError | AuthenticationError | PermissionError, strawberry.union("PublishModelResult")
]


@mutation()
async def publish_model(info: Info, model_id: relay.GlobalID, published: bool = True) -> PublishModelResult:
    await authorize(info, permissions.submit_models)
    pk = node_pk(model_id, "Model", "modelId")
    await authorize(info, permissions.publish_model, await models_service.get_model(pk))
    row = await models_service.set_published(pk, published)
    return ModelChanged(model=ModelNode.from_row(row))
