"""Node types of accounts: users, API tokens, and the session a sign-up or log-in answers with."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from enum import Enum
from typing import Any

import strawberry
from strawberry import relay
from strawberry.types import Info

from server import permissions
from server.accounts import service as accounts
from server.accounts.records import TokenScope
from server.graphql.core.relay import load_nodes, parse_pk


@strawberry.type(name="User")
class UserNode(relay.Node):
    id: relay.NodeID[int]
    username: str
    is_admin: bool
    created_at: datetime

    stored_email: strawberry.Private[str | None] = None
    email_verified_at: strawberry.Private[datetime | None] = None

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> UserNode:
        return cls(
            id=row["id"],
            username=row["username"],
            is_admin=row["is_admin"],
            created_at=row["created_at"],
            stored_email=row.get("email"),
            email_verified_at=row.get("email_verified_at"),
        )

    @strawberry.field(description="The account's email: seen by its owner and admins only (null for anyone else).")
    async def email(self, info: Info) -> str | None:
        return self.stored_email if permissions.can_view_email(await info.context.viewer(), self.id) else None

    @strawberry.field(description="Whether the email was confirmed by its mailed link (owner and admins; else false).")
    async def email_verified(self, info: Info) -> bool:
        visible = self.stored_email and permissions.can_view_email(await info.context.viewer(), self.id)
        return bool(visible and self.email_verified_at is not None)

    @classmethod
    async def resolve_nodes(cls, *, info: Info, node_ids: Iterable[str], required: bool = False):
        return await load_nodes(info.context.loaders.user, node_ids, cls.from_row)


@strawberry.enum
class ApiTokenScope(Enum):
    READ = TokenScope.READ.value
    ANNOTATE = TokenScope.ANNOTATE.value
    MODELS = TokenScope.MODELS.value
    ADMIN = TokenScope.ADMIN.value


@strawberry.type
class AuthPayload:
    token: str = strawberry.field(description="Session token (JWT): send it as `Authorization: Bearer <token>`.")
    user: UserNode


@strawberry.type
class ApiToken(relay.Node):
    id: relay.NodeID[int]
    name: str
    prefix: str = strawberry.field(description="Identifies the token; the secret itself is shown only once.")
    scopes: list[ApiTokenScope]
    created_at: datetime
    last_used_at: datetime | None

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> ApiToken:
        return cls(
            id=row["id"],
            name=row["name"],
            prefix=row["prefix"],
            scopes=[ApiTokenScope(s) for s in row["scopes"]],
            created_at=row["created_at"],
            last_used_at=row.get("last_used_at"),
        )

    @classmethod
    async def resolve_nodes(cls, *, info: Info, node_ids, required: bool = False):
        node_ids = list(node_ids)
        viewer = await info.context.viewer()
        if viewer is None:
            return [None] * len(node_ids)
        ids = [pk for pk in (parse_pk(node_id) for node_id in node_ids) if pk is not None]
        rows = await accounts.live_api_tokens(ids)
        # Matched on the id as written: a global id spelled differently (e.g. "01") names no token.
        visible = {str(row["id"]): cls.from_row(row) for row in rows if permissions.can_view_api_token(viewer, row)}
        return [visible.get(str(node_id)) for node_id in node_ids]
