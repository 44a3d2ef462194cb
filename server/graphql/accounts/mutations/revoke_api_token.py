"""revokeApiToken: one of your API tokens is refused from the next request on (and its open WebSockets close)."""

from __future__ import annotations

from typing import Annotated

import strawberry
from strawberry import relay
from strawberry.types import Info

from server import permissions
from server.accounts import service as accounts
from server.graphql.accounts.types import ApiToken
from server.graphql.core.errors import AuthenticationError, InputError, NotFoundError, PermissionError, mutation
from server.graphql.core.guard import authorize
from server.graphql.core.relay import node_pk


@strawberry.type
class ApiTokenRevoked:
    api_token: ApiToken


RevokeApiTokenResult = Annotated[
    ApiTokenRevoked | InputError | NotFoundError | AuthenticationError | PermissionError, strawberry.union("RevokeApiTokenResult")
]


@mutation(
    description="Revoke one of your API tokens: it is refused from the next request on, and WebSockets opened with it close."
)
async def revoke_api_token(info: Info, token_id: relay.GlobalID) -> RevokeApiTokenResult:
    viewer = await authorize(info, permissions.revoke_api_token)
    row = await accounts.revoke_api_token(viewer.user_id, node_pk(token_id, "ApiToken", "tokenId"), info.context.services.redis)
    return ApiTokenRevoked(api_token=ApiToken.from_row(row))
