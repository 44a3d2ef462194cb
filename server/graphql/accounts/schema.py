"""Accounts in GraphQL: me, signUp, logIn, createApiToken."""

from __future__ import annotations

from datetime import datetime
from enum import Enum
from typing import Annotated

import strawberry
from strawberry import relay
from strawberry.types import Info

from server import permissions
from server.accounts import service as accounts
from server.graphql.core.errors import (
    AuthenticationError, ConflictError, InputError, NotFoundError, PermissionError, RateLimitedError,
)
from server.graphql.core.guard import as_result, authorize
from server.graphql.core.relay import node_pk
from server.graphql.accounts.types import UserNode


@strawberry.enum
class ApiTokenScope(Enum):
    READ = "read"
    ANNOTATE = "annotate"
    MODELS = "models"
    ADMIN = "admin"


@strawberry.type
class AuthPayload:
    token: str = strawberry.field(description="Session token (JWT): send it as `Authorization: Bearer <token>`.")
    user: UserNode


@strawberry.type
class ApiToken(relay.Node):
    id: relay.NodeID[int]
    name: str
    prefix: str = strawberry.field(description="Identifies the token; the secret itself is shown only once.")
    scopes: list[ApiTokenScope]
    created_at: datetime
    last_used_at: datetime | None

    @classmethod
    def from_row(cls, row: dict) -> "ApiToken":
        return cls(
            id=row["id"], name=row["name"], prefix=row["prefix"],
            scopes=[ApiTokenScope(s) for s in row["scopes"]], created_at=row["created_at"],
            last_used_at=row.get("last_used_at"),
        )

    @classmethod
    async def resolve_nodes(cls, *, info: Info, node_ids, required: bool = False):
        viewer = await info.context.viewer()
        rows = await accounts.own_api_tokens(viewer.user_id) if viewer else []
        by_id = {str(row["id"]): cls.from_row(row) for row in rows}
        return [by_id.get(str(node_id)) for node_id in node_ids]


@strawberry.type
class ApiTokenCreated:
    token: str = strawberry.field(description="The secret. Shown only now; store it safely.")
    api_token: ApiToken


@strawberry.input
class SignUpInput:
    username: str
    password: str
    email: str | None = None


@strawberry.input
class LogInInput:
    username: str
    password: str


@strawberry.input
class CreateApiTokenInput:
    name: str
    scopes: list[ApiTokenScope]


@strawberry.type
class ApiTokenRevoked:
    api_token: ApiToken


RevokeApiTokenResult = Annotated[
    ApiTokenRevoked | InputError | NotFoundError | AuthenticationError | PermissionError, strawberry.union("RevokeApiTokenResult")
]
SignUpResult = Annotated[AuthPayload | InputError | ConflictError, strawberry.union("SignUpResult")]
LogInResult = Annotated[AuthPayload | AuthenticationError | InputError | RateLimitedError, strawberry.union("LogInResult")]
CreateApiTokenResult = Annotated[
    ApiTokenCreated | InputError | AuthenticationError | PermissionError, strawberry.union("CreateApiTokenResult")
]


@strawberry.type
class AccountQueries:
    @strawberry.field(description="The signed-in user, or null when anonymous.")
    async def me(self, info: Info) -> UserNode | None:
        # The full viewer: a session of an account that is gone is refused (AUTHENTICATION_FAILED), not null.
        viewer = await authorize(info, permissions.read_public)
        if viewer is None:
            return None
        row = await info.context.loaders.user.load(viewer.user_id)
        return UserNode.from_row(row) if row else None

    @strawberry.field(description="Your live API tokens (name, prefix, scopes, last use; never the secret).")
    async def my_api_tokens(self, info: Info) -> list[ApiToken]:
        viewer = await authorize(info, permissions.create_api_token)
        return [ApiToken.from_row(row) for row in await accounts.own_api_tokens(viewer.user_id)]


@strawberry.type
class AccountMutations:
    @strawberry.mutation
    async def sign_up(self, info: Info, input: SignUpInput) -> SignUpResult:
        settings = info.context.services.settings

        async def run():
            session = await accounts.sign_up(
                input.username, input.password, input.email, settings.jwt_secret, settings.jwt_ttl_seconds
            )
            return AuthPayload(token=session.token, user=UserNode.from_row(session.user))

        return await as_result(run)

    @strawberry.mutation
    async def log_in(self, info: Info, input: LogInInput) -> LogInResult:
        settings = info.context.services.settings

        async def run():
            limit = accounts.LoginLimit(settings.login_max_failures, settings.login_window_seconds)
            session = await accounts.log_in(input.username, input.password, settings.jwt_secret, settings.jwt_ttl_seconds,
                                            info.context.services.redis, limit)
            return AuthPayload(token=session.token, user=UserNode.from_row(session.user))

        return await as_result(run)

    @strawberry.mutation
    async def create_api_token(self, info: Info, input: CreateApiTokenInput) -> CreateApiTokenResult:
        scopes = [scope.value for scope in input.scopes]

        async def run():
            viewer = await authorize(info, permissions.create_api_token)
            token, row = await accounts.create_api_token(viewer, input.name, scopes)
            return ApiTokenCreated(token=token, api_token=ApiToken.from_row(row))

        return await as_result(run)

    @strawberry.mutation(description="Revoke one of your API tokens: it is refused from the next request on.")
    async def revoke_api_token(self, info: Info, token_id: relay.GlobalID) -> RevokeApiTokenResult:
        async def run():
            viewer = await authorize(info, permissions.create_api_token)
            row = await accounts.revoke_api_token(viewer.user_id, node_pk(token_id, "ApiToken", "tokenId"))
            return ApiTokenRevoked(api_token=ApiToken.from_row(row))

        return await as_result(run)
