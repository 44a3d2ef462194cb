"""adminIssuePasswordReset: an admin gets a one-time reset link for an account, to hand over (no mail needed)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

import strawberry
from strawberry.types import Info

from server import permissions
from server.accounts import recovery
from server.graphql.core.errors import AuthenticationError, InputError, NotFoundError, PermissionError, mutation
from server.graphql.core.guard import authorize


@strawberry.input
class AdminIssuePasswordResetInput:
    username: str


@strawberry.type
class PasswordResetIssued:
    link: str = strawberry.field(description="The PWA page that sets a new password with the token; works once.")
    token: str
    expires_at: datetime


AdminIssuePasswordResetResult = Annotated[
    PasswordResetIssued | InputError | NotFoundError | AuthenticationError | PermissionError,
    strawberry.union("AdminIssuePasswordResetResult"),
]


@mutation(description="Admins: a one-time password reset link for an account, to hand over to its owner.")
async def admin_issue_password_reset(info: Info, input: AdminIssuePasswordResetInput) -> AdminIssuePasswordResetResult:
    viewer = await authorize(info, permissions.admin_issue_password_reset)
    assert viewer is not None
    # Recorded in the admins' audit log, in the token's transaction.
    issued = await recovery.issue_password_reset(info.context.services.settings, input.username, actor_id=viewer.user_id)
    return PasswordResetIssued(link=issued.link, token=issued.token, expires_at=issued.expires_at)
