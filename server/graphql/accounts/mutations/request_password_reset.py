"""requestPasswordReset: the same answer for any username or email; a reset link goes to a verified email only."""

from __future__ import annotations

from typing import Annotated

import strawberry
from strawberry.types import Info

from server.accounts import recovery
from server.core.i18n import localize, tr
from server.core.rate_limits import Action
from server.graphql.core.errors import InputError, RateLimitedError, mutation
from server.graphql.core.guard import throttle

SENT = tr("If that account exists and has a verified email address, a reset link is on its way; it works once and expires soon.")
BY_ADMIN = tr("This platform sends no mail: ask an admin for a password reset link.")


@strawberry.input
class RequestPasswordResetInput:
    username_or_email: str


@strawberry.type
class PasswordResetRequested:
    message: str
    by_admin: bool = strawberry.field(description="True when resets go through an admin (this platform sends no mail).")


RequestPasswordResetResult = Annotated[
    PasswordResetRequested | InputError | RateLimitedError, strawberry.union("RequestPasswordResetResult")
]


@mutation(description="Ask for a password reset link by username or email; the answer never says whether it exists.")
async def request_password_reset(info: Info, input: RequestPasswordResetInput) -> RequestPasswordResetResult:
    await throttle(info, Action.PASSWORD_RESET)  # per client address (per account: counted when mailed)
    request = await recovery.request_password_reset(info.context.services, input.username_or_email)
    return PasswordResetRequested(message=localize(BY_ADMIN if request.by_admin else SENT), by_admin=request.by_admin)
