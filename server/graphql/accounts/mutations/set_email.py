"""setEmail: the account's optional email, stored unverified; a verification link is mailed to it."""

from __future__ import annotations

from typing import Annotated

import strawberry
from strawberry.types import Info

from server import permissions
from server.accounts import recovery
from server.core.rate_limits import Action
from server.graphql.accounts.types import UserNode
from server.graphql.core.errors import AuthenticationError, InputError, PermissionError, RateLimitedError, mutation
from server.graphql.core.guard import authorize, throttle


@strawberry.input
class SetEmailInput:
    email: str | None = strawberry.field(default=None, description="The new address; null or empty removes it.")


@strawberry.type
class EmailSet:
    user: UserNode
    verification_sent: bool = strawberry.field(
        description="A verification link was mailed (false when the address is removed, already verified, or this "
        "platform sends no mail: it then stays unverified, and password resets go through an admin)."
    )


SetEmailResult = Annotated[
    EmailSet | InputError | AuthenticationError | PermissionError | RateLimitedError, strawberry.union("SetEmailResult")
]


@mutation(description="Set (or remove) your email; a new address is unverified until you open the link mailed to it.")
async def set_email(info: Info, input: SetEmailInput) -> SetEmailResult:
    viewer = await authorize(info, permissions.set_email)
    await throttle(info, Action.SET_EMAIL, viewer.user_id)
    change = await recovery.set_email(info.context.services, viewer.user_id, input.email)
    info.context.loaders.user.clear_all()  # the row changed in this request
    row = await info.context.loaders.user.load(viewer.user_id)
    return EmailSet(user=UserNode.from_row(row), verification_sent=change.verification_sent)
