"""updateLlmEndpoint: an admin changes an LLM endpoint's settings (only those given); the key is kept, replaced or
cleared."""

from __future__ import annotations

from typing import Annotated, Any

import strawberry
from strawberry.types import Info

from server import permissions
from server.generation.endpoints import service
from server.generation.endpoints.rules import FIELDS
from server.graphql.core.errors import AuthenticationError, InputError, NotFoundError, PermissionError, mutation
from server.graphql.core.guard import authorize
from server.graphql.generation.endpoint_types import LlmEndpointType


@strawberry.input(description="The settings to change; a field left out (or null) keeps its value.")
class UpdateLlmEndpointInput:
    name: str = strawberry.field(description="The endpoint to change (its name cannot change).")
    base_url: str | None = strawberry.UNSET
    model: str | None = strawberry.UNSET
    api_key: str | None = strawberry.field(
        default=strawberry.UNSET, description='Left out or null: the stored key stays; "": no key any more; else the new key.'
    )
    timeout_s: float | None = strawberry.UNSET
    max_concurrency: int | None = strawberry.UNSET
    tokens_per_user_per_day: int | None = strawberry.UNSET
    tokens_per_task_per_day: int | None = strawberry.UNSET
    price_per_1k_prompt_tokens: float | None = strawberry.UNSET
    price_per_1k_completion_tokens: float | None = strawberry.UNSET
    enabled: bool | None = strawberry.UNSET


@strawberry.type
class LlmEndpointUpdated:
    endpoint: LlmEndpointType


UpdateLlmEndpointResult = Annotated[
    LlmEndpointUpdated | InputError | NotFoundError | AuthenticationError | PermissionError,
    strawberry.union("UpdateLlmEndpointResult"),
]


@mutation(description="Admins: change an LLM endpoint's settings (only those given), its key included. Audited.")
async def update_llm_endpoint(info: Info, input: UpdateLlmEndpointInput) -> UpdateLlmEndpointResult:
    viewer = await authorize(info, permissions.manage_llm_endpoints)
    assert viewer is not None
    changes: dict[str, Any] = {}
    for column in FIELDS:
        value = getattr(input, column)
        if column != "name" and value is not strawberry.UNSET and value is not None:
            changes[column] = value
    view = await service.update(info.context.services.settings, viewer, input.name, changes)
    return LlmEndpointUpdated(endpoint=LlmEndpointType.of(view))
