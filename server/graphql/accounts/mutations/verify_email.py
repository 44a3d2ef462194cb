"""verifyEmail: the mailed link's token marks the address it was sent to as verified (once)."""

from __future__ import annotations

from typing import Annotated

import strawberry
from strawberry.types import Info

from server.accounts import recovery
from server.graphql.core.errors import ConflictError, InputError, mutation


@strawberry.input
class VerifyEmailInput:
    token: str


@strawberry.type
class EmailVerified:
    email: str


VerifyEmailResult = Annotated[EmailVerified | InputError | ConflictError, strawberry.union("VerifyEmailResult")]


@mutation(description="Confirm an email address with the token of the link mailed to it (no sign-in needed).")
async def verify_email(info: Info, input: VerifyEmailInput) -> VerifyEmailResult:
    return EmailVerified(email=await recovery.verify_email(input.token))
