"""resetUserSessions: an admin ends every session of an account (its API tokens stay)."""

from __future__ import annotations

from typing import Annotated

import strawberry
from strawberry import relay
from strawberry.types import Info

from server import permissions
from server.admin import service as admin
from server.graphql.admin.types import AdminUserType
from server.graphql.core.errors import AuthenticationError, InputError, NotFoundError, PermissionError, mutation
from server.graphql.core.guard import authorize
from server.graphql.core.relay import node_pk


@strawberry.type
class UserSessionsReset:
    user: AdminUserType


ResetUserSessionsResult = Annotated[
    UserSessionsReset | InputError | NotFoundError | AuthenticationError | PermissionError,
    strawberry.union("ResetUserSessionsResult"),
]


@mutation(description="Admins: sign out every session of an account at once (its API tokens keep working).")
async def reset_user_sessions(info: Info, user_id: relay.GlobalID) -> ResetUserSessionsResult:
    viewer = await authorize(info, permissions.administer)
    assert viewer is not None
    row = await admin.reset_sessions(info.context.services.redis, viewer, node_pk(user_id, "User", "userId"))
    return UserSessionsReset(user=AdminUserType.from_row(row))
