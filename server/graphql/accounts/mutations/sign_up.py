"""signUp: a new account, answered with a session (sign-ups are limited per client address)."""

from __future__ import annotations

from typing import Annotated

import strawberry
from strawberry.types import Info

from server.accounts import service as accounts
from server.core.rate_limits import Action
from server.graphql.accounts.types import AuthPayload, UserNode
from server.graphql.core.errors import ConflictError, InputError, RateLimitedError, mutation
from server.graphql.core.guard import throttle


@strawberry.input
class SignUpInput:
    username: str
    password: str
    email: str | None = None


SignUpResult = Annotated[AuthPayload | InputError | ConflictError | RateLimitedError, strawberry.union("SignUpResult")]


@mutation()
async def sign_up(info: Info, input: SignUpInput) -> SignUpResult:
    await throttle(info, Action.SIGN_UP)  # per client address: every attempt counts
    settings = info.context.services.settings
    session = await accounts.sign_up(input.username, input.password, input.email, settings.jwt_secret, settings.jwt_ttl_seconds)
    return AuthPayload(token=session.token, user=UserNode.from_row(session.user))
