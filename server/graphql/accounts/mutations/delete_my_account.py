"""deleteMyAccount: the account's personal data forgotten, its work kept under a keyed pseudonym or, in tasks whose config
says so, removed (docs/api.md)."""

from __future__ import annotations

from typing import Annotated

import strawberry
from strawberry.types import Info

from server import permissions
from server.accounts import personal_data
from server.graphql.core.errors import AuthenticationError, ConflictError, InputError, PermissionError, mutation
from server.graphql.core.guard import authorize_principal


@strawberry.input
class DeleteMyAccountInput:
    password: str | None = strawberry.field(
        default=None, description="Your password; may be left out within 10 minutes of logging in (crowd accounts)."
    )


@strawberry.type
class AccountDeleted:
    pseudonym: str = strawberry.field(
        description="The name your kept examples and votes now carry (the same pseudonym as in exports); nothing else "
        "about you remains. Your sessions and API tokens no longer work."
    )


DeleteMyAccountResult = Annotated[
    AccountDeleted | InputError | AuthenticationError | PermissionError | ConflictError,
    strawberry.union("DeleteMyAccountResult"),
]


@mutation(
    description="Delete your account: username replaced by a pseudonym; email, tokens, inbox and crowd platform ids "
    "removed; your examples and votes stay as the tasks' data under the pseudonym, except in tasks whose config removes "
    "a deleted account's work: there they are removed and what they counted for is recomputed (exportMyData's "
    "removed_if_deleted names those tasks). From a session, with your password (or a log-in less than 10 minutes old). "
    "The last admin cannot."
)
async def delete_my_account(info: Info, input: DeleteMyAccountInput) -> DeleteMyAccountResult:
    principal = await authorize_principal(info, permissions.delete_my_account)
    assert principal is not None
    pseudonym = await personal_data.delete_account(info.context.services, principal, input.password)
    return AccountDeleted(pseudonym=pseudonym)
