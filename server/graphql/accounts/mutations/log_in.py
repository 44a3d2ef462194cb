"""logIn: a session for a username and password (failed attempts are limited per account)."""

from __future__ import annotations

from typing import Annotated

import strawberry
from strawberry.types import Info

from server.accounts import service as accounts
from server.graphql.accounts.types import AuthPayload, UserNode
from server.graphql.core.errors import AuthenticationError, InputError, RateLimitedError, mutation


@strawberry.input
class LogInInput:
    username: str
    password: str


LogInResult = Annotated[AuthPayload | AuthenticationError | InputError | RateLimitedError, strawberry.union("LogInResult")]


@mutation()
async def log_in(info: Info, input: LogInInput) -> LogInResult:
    settings = info.context.services.settings
    limit = accounts.LoginLimit(settings.login_max_failures, settings.login_window_seconds)
    session = await accounts.log_in(
        input.username, input.password, settings.jwt_secret, settings.jwt_ttl_seconds, info.context.services.redis, limit
    )
    return AuthPayload(token=session.token, user=UserNode.from_row(session.user))
