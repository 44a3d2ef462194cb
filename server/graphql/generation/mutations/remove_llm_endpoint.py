"""removeLlmEndpoint: an admin removes an LLM endpoint (its usage counts stay)."""

from __future__ import annotations

from typing import Annotated

import strawberry
from strawberry.types import Info

from server import permissions
from server.generation.endpoints import service
from server.graphql.core.errors import AuthenticationError, NotFoundError, PermissionError, mutation
from server.graphql.core.guard import authorize


@strawberry.type
class LlmEndpointRemoved:
    name: str


RemoveLlmEndpointResult = Annotated[
    LlmEndpointRemoved | NotFoundError | AuthenticationError | PermissionError,
    strawberry.union("RemoveLlmEndpointResult"),
]


@mutation(
    description="Admins: remove an LLM endpoint and its stored key. Its usage counts stay; a round that names it gets "
    "a readable failure for each reply until its owner changes the round's targets (updateLlmEndpoint with "
    "`enabled: false` pauses one instead). Audited."
)
async def remove_llm_endpoint(info: Info, name: str) -> RemoveLlmEndpointResult:
    viewer = await authorize(info, permissions.manage_llm_endpoints)
    assert viewer is not None
    return LlmEndpointRemoved(name=await service.remove(viewer, name))
