"""registerLlmEndpoint: an admin registers an OpenAI-compatible server as a generative target (its key sealed)."""

from __future__ import annotations

from typing import Annotated

import strawberry
from strawberry.types import Info

from server import permissions
from server.generation.endpoints import service
from server.generation.endpoints.rules import FIELDS
from server.graphql.core.errors import AuthenticationError, ConflictError, InputError, PermissionError, mutation
from server.graphql.core.guard import authorize
from server.graphql.generation.endpoint_types import LlmEndpointType


@strawberry.input(description="A new LLM endpoint. Budgets of 0 mean no limit; prices are per 1,000 tokens.")
class RegisterLlmEndpointInput:
    name: str = strawberry.field(description="1–64 characters: a-z, 0-9, - and _, starting with a letter.")
    base_url: str = strawberry.field(description="http(s)://host[:port]/path, usually ending in /v1; no credentials.")
    model: str
    api_key: str = strawberry.field(default="", description="Sent as the bearer token; stored encrypted, never returned.")
    timeout_s: float = 30.0
    max_concurrency: int = 4
    tokens_per_user_per_day: int = 0
    tokens_per_task_per_day: int = 0
    price_per_1k_prompt_tokens: float = 0.0
    price_per_1k_completion_tokens: float = 0.0
    enabled: bool = True


@strawberry.type
class LlmEndpointRegistered:
    endpoint: LlmEndpointType


RegisterLlmEndpointResult = Annotated[
    LlmEndpointRegistered | InputError | ConflictError | AuthenticationError | PermissionError,
    strawberry.union("RegisterLlmEndpointResult"),
]


@mutation(
    description="Admins: register an OpenAI-compatible server (chat completions) that generative rounds can name as "
    "their target. Nothing is sent to it now; a round that names it checks that it answers. Audited."
)
async def register_llm_endpoint(info: Info, input: RegisterLlmEndpointInput) -> RegisterLlmEndpointResult:
    viewer = await authorize(info, permissions.manage_llm_endpoints)
    assert viewer is not None
    values = {column: getattr(input, column) for column in FIELDS}
    view = await service.register(info.context.services.settings, viewer, values)
    return LlmEndpointRegistered(endpoint=LlmEndpointType.of(view))
