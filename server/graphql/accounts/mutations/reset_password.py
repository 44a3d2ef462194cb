"""resetPassword: a new password with a reset token (once); every session of the account ends."""

from __future__ import annotations

from typing import Annotated

import strawberry
from strawberry.types import Info

from server.accounts import recovery
from server.graphql.core.errors import InputError, mutation


@strawberry.input
class ResetPasswordInput:
    token: str
    new_password: str


@strawberry.type
class PasswordResetDone:
    username: str = strawberry.field(description="The account whose password changed: log in with the new one.")


ResetPasswordResult = Annotated[PasswordResetDone | InputError, strawberry.union("ResetPasswordResult")]


@mutation(description="Set a new password with the token of a reset link; all the account's sessions end.")
async def reset_password(info: Info, input: ResetPasswordInput) -> ResetPasswordResult:
    username = await recovery.reset_password(info.context.services, input.token, input.new_password)
    return PasswordResetDone(username=username)
