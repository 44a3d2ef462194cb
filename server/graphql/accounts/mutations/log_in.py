"""logIn: a session for a username and password (failures are limited per account and address: lockout.py)."""

from __future__ import annotations

from typing import Annotated

import strawberry
from strawberry.types import Info

from server.accounts import service as accounts
from server.accounts.lockout import LoginRules
from server.graphql.accounts.types import AuthPayload, UserNode
from server.graphql.core.errors import AuthenticationError, InputError, RateLimitedError, mutation


@strawberry.input
class LogInInput:
    username: str
    password: str


LogInResult = Annotated[AuthPayload | AuthenticationError | InputError | RateLimitedError, strawberry.union("LogInResult")]


@mutation()
async def log_in(info: Info, input: LogInInput) -> LogInResult:
    services = info.context.services
    settings = services.settings
    session = await accounts.log_in(
        input.username,
        input.password,
        settings.jwt_secret,
        settings.jwt_ttl_seconds,
        services.redis,
        LoginRules.from_settings(settings),
        info.context.client_address(),
    )
    return AuthPayload(token=session.token, user=UserNode.from_row(session.user))
