"""createApiToken: a long-lived credential with chosen scopes; its secret is shown once."""

from __future__ import annotations

from typing import Annotated

import strawberry
from strawberry.types import Info

from server import permissions
from server.accounts import service as accounts
from server.graphql.accounts.types import ApiToken, ApiTokenScope
from server.graphql.core.errors import AuthenticationError, InputError, PermissionError, mutation
from server.graphql.core.guard import authorize


@strawberry.input
class CreateApiTokenInput:
    name: str
    scopes: list[ApiTokenScope]


@strawberry.type
class ApiTokenCreated:
    token: str = strawberry.field(description="The secret. Shown only now; store it safely.")
    api_token: ApiToken


CreateApiTokenResult = Annotated[
    ApiTokenCreated | InputError | AuthenticationError | PermissionError, strawberry.union("CreateApiTokenResult")
]


@mutation()
async def create_api_token(info: Info, input: CreateApiTokenInput) -> CreateApiTokenResult:
    scopes = [scope.value for scope in input.scopes]
    viewer = await authorize(info, permissions.create_api_token)
    token, row = await accounts.create_api_token(viewer, input.name, scopes)
    return ApiTokenCreated(token=token, api_token=ApiToken.from_row(row))
