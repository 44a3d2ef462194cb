"""setUserDisabled: an admin disables an account (no log-in; every session and API token refused at once) or enables
it again."""

from __future__ import annotations

from typing import Annotated

import strawberry
from strawberry import relay
from strawberry.types import Info

from server import permissions
from server.admin import service as admin
from server.graphql.admin.types import AdminUserType
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
class UserDisabledSet:
    user: AdminUserType


SetUserDisabledResult = Annotated[
    UserDisabledSet | InputError | ConflictError | NotFoundError | AuthenticationError | PermissionError,
    strawberry.union("SetUserDisabledResult"),
]


@mutation(
    description="Admins: disable an account (a reason is required; its sessions and API tokens stop working at once "
    "and it cannot log in) or enable it again (its old sessions stay ended). Not your own account."
)
async def set_user_disabled(info: Info, user_id: relay.GlobalID, disabled: bool, reason: str = "") -> SetUserDisabledResult:
    viewer = await authorize(info, permissions.administer)
    assert viewer is not None
    pk = node_pk(user_id, "User", "userId")
    row = await admin.set_disabled(info.context.services.redis, viewer, pk, disabled, reason)
    return UserDisabledSet(user=AdminUserType.from_row(row))
