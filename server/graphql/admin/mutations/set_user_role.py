"""setUserRole: an admin makes a user an admin, or an admin a plain user (not themself; never the last admin)."""

from __future__ import annotations

from typing import Annotated

import strawberry
from strawberry import relay
from strawberry.types import Info

from server import permissions
from server.admin import records
from server.admin import service as admin
from server.graphql.admin.types import AdminUserType, UserRole
from server.graphql.core.errors import (
    AuthenticationError,
    ConflictError,
    InputError,
    NotFoundError,
    PermissionError,
    mutation,
)
from server.graphql.core.guard import authorize
from server.graphql.core.relay import node_pk


@strawberry.type
class UserRoleSet:
    user: AdminUserType


SetUserRoleResult = Annotated[
    UserRoleSet | InputError | ConflictError | NotFoundError | AuthenticationError | PermissionError,
    strawberry.union("SetUserRoleResult"),
]


@mutation(description="Admins: make a user an admin (ADMIN) or a plain user (USER); not yourself, never the last admin.")
async def set_user_role(info: Info, user_id: relay.GlobalID, role: UserRole) -> SetUserRoleResult:
    viewer = await authorize(info, permissions.administer)
    assert viewer is not None
    row = await admin.set_role(viewer, node_pk(user_id, "User", "userId"), records.UserRole(role.value))
    return UserRoleSet(user=AdminUserType.from_row(row))
