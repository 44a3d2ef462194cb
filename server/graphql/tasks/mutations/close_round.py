"""closeRound: task owners stop collecting examples in a round."""

from __future__ import annotations

from typing import Annotated

import strawberry
from strawberry import relay
from strawberry.types import Info

from server import permissions
from server.graphql.core.errors import AuthenticationError, InputError, NotFoundError, PermissionError, mutation
from server.graphql.core.guard import authorize
from server.graphql.core.relay import node_pk
from server.graphql.tasks.types import RoundNode
from server.graphql.tasks.visibility import owned_round
from server.tasks import service as tasks


@strawberry.type
class RoundClosed:
    round: RoundNode


CloseRoundResult = Annotated[
    RoundClosed | InputError | NotFoundError | AuthenticationError | PermissionError, strawberry.union("CloseRoundResult")
]


@mutation(description="Task owners: stop collecting examples in a round.")
async def close_round(info: Info, round_id: relay.GlobalID) -> CloseRoundResult:
    round_row = await owned_round(info, node_pk(round_id, "Round", "roundId"))
    await authorize(info, permissions.manage_task, round_row["task"])
    row = await tasks.close_round(round_row["id"], redis=info.context.services.redis, services=info.context.services)
    return RoundClosed(round=RoundNode.from_row(row))
