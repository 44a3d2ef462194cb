"""stopReply and the shared result of the reply mutations."""

from __future__ import annotations

from typing import Annotated

import strawberry
from strawberry import relay
from strawberry.types import Info

from server import permissions
from server.annotation.conversations import service
from server.graphql.annotation.conversation_types import ConversationTurn
from server.graphql.core.errors import (
    AuthenticationError,
    ConflictError,
    InputError,
    NotFoundError,
    PermissionError,
    RateLimitedError,
    RoundClosedError,
    mutation,
)
from server.graphql.core.guard import authorize_principal
from server.graphql.core.relay import node_pk


@strawberry.type
class ReplyChanged:
    turn: ConversationTurn = strawberry.field(description="The turn now; its stream (replyStream) ends with the outcome.")


ReplyResult = Annotated[
    ReplyChanged
    | InputError
    | NotFoundError
    | ConflictError
    | RoundClosedError
    | RateLimitedError
    | AuthenticationError
    | PermissionError,
    strawberry.union("ReplyResult"),
]


@mutation(description="Stop a reply being generated; the text so far is kept (status STOPPED).")
async def stop_reply(info: Info, turn_id: relay.GlobalID) -> ReplyResult:
    viewer = await authorize_principal(info, permissions.annotate)
    turn = await service.stop_reply(info.context.services, viewer, node_pk(turn_id, "ConversationTurn", "turnId"))
    return ReplyChanged(turn=ConversationTurn.from_row(turn))
