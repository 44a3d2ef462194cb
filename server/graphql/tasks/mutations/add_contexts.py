"""addContexts: task owners add contexts to a round, all or none."""

from __future__ import annotations

from typing import Annotated

import strawberry
from strawberry import relay
from strawberry.scalars import JSON
from strawberry.types import Info

from server import permissions
from server.graphql.core.errors import AuthenticationError, InputError, NotFoundError, PermissionError, mutation
from server.graphql.core.guard import authorize
from server.graphql.core.relay import node_pk
from server.graphql.tasks.types import RoundNode
from server.graphql.tasks.visibility import owned_round
from server.tasks import service as tasks


@strawberry.input
class ContextInput:
    fields: JSON
    tag: str | None = None


@strawberry.input
class AddContextsInput:
    round_id: relay.GlobalID
    contexts: list[ContextInput]


@strawberry.type
class ContextsAdded:
    count: int
    round: RoundNode


AddContextsResult = Annotated[
    ContextsAdded | InputError | NotFoundError | AuthenticationError | PermissionError, strawberry.union("AddContextsResult")
]


@mutation()
async def add_contexts(info: Info, input: AddContextsInput) -> AddContextsResult:
    round_row = await owned_round(info, node_pk(input.round_id, "Round", "roundId"))
    await authorize(info, permissions.manage_task, round_row["task"])
    count = await tasks.add_contexts(round_row, [{"fields": c.fields, "tag": c.tag} for c in input.contexts])
    return ContextsAdded(count=count, round=RoundNode.from_row(round_row))
