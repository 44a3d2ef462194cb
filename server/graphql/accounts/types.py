"""Node types of accounts."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

import strawberry
from strawberry import relay
from strawberry.types import Info

from server.graphql.core.relay import load_nodes


@strawberry.type(name="User")
class UserNode(relay.Node):
    id: relay.NodeID[int]
    username: str
    is_admin: bool
    created_at: datetime

    @classmethod
    def from_row(cls, row: dict) -> "UserNode":
        return cls(id=row["id"], username=row["username"], is_admin=row["is_admin"], created_at=row["created_at"])

    @classmethod
    async def resolve_nodes(cls, *, info: Info, node_ids: Iterable[str], required: bool = False):
        return await load_nodes(info.context.loaders.user, node_ids, cls.from_row)
