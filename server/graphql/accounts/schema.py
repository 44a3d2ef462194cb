"""Accounts in GraphQL: me, myApiTokens, signUp, logIn, createApiToken, revokeApiToken, recovery (setEmail,
verifyEmail, requestPasswordReset, resetPassword, adminIssuePasswordReset) and a person's data (exportMyData,
deleteMyAccount)."""

from __future__ import annotations

import strawberry
from strawberry.scalars import JSON
from strawberry.types import Info

from server import permissions
from server.accounts import personal_data
from server.accounts import service as accounts
from server.graphql.accounts.mutations.admin_issue_password_reset import admin_issue_password_reset
from server.graphql.accounts.mutations.create_api_token import create_api_token
from server.graphql.accounts.mutations.delete_my_account import delete_my_account
from server.graphql.accounts.mutations.log_in import log_in
from server.graphql.accounts.mutations.request_password_reset import request_password_reset
from server.graphql.accounts.mutations.reset_password import reset_password
from server.graphql.accounts.mutations.revoke_api_token import revoke_api_token
from server.graphql.accounts.mutations.set_email import set_email
from server.graphql.accounts.mutations.sign_up import sign_up
from server.graphql.accounts.mutations.verify_email import verify_email
from server.graphql.accounts.types import ApiToken, UserNode
from server.graphql.core.guard import authorize, authorize_principal


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
        viewer = await authorize(info, permissions.list_api_tokens)
        return [ApiToken.from_row(row) for row in await accounts.own_api_tokens(viewer.user_id)]

    @strawberry.field(
        description="Everything the platform holds about you, as JSON: your account and, per table, every row that "
        "refers to you (examples, votes, conversations and their turns, campaign entries, notifications, tokens' names; "
        "never a password or token hash), and `removed_if_deleted`: the tasks whose config would remove your work if you "
        "deleted your account now."
    )
    async def export_my_data(self, info: Info) -> JSON:
        principal = await authorize_principal(info, permissions.export_my_data)
        assert principal is not None
        return await personal_data.my_data(principal.user_id)


@strawberry.type
class AccountMutations:
    sign_up = sign_up
    log_in = log_in
    create_api_token = create_api_token
    revoke_api_token = revoke_api_token
    set_email = set_email
    verify_email = verify_email
    request_password_reset = request_password_reset
    reset_password = reset_password
    admin_issue_password_reset = admin_issue_password_reset
    delete_my_account = delete_my_account
