"""retryReply: ask the target again for a reply that failed or was stopped (the last one of the conversation)."""

from __future__ import annotations

from strawberry import relay
from strawberry.types import Info

from server import permissions
from server.annotation.conversations import service
from server.graphql.annotation.conversation_types import ConversationTurn
from server.graphql.annotation.mutations.stop_reply import ReplyChanged, ReplyResult
from server.graphql.core.errors import mutation
from server.graphql.core.guard import authorize_principal
from server.graphql.core.relay import node_pk


@mutation(description="Ask again for the last reply after it failed or was stopped; the earlier attempt is kept.")
async def retry_reply(info: Info, turn_id: relay.GlobalID) -> ReplyResult:
    viewer = await authorize_principal(info, permissions.annotate)
    pk = node_pk(turn_id, "ConversationTurn", "turnId")
    turn = await service.retry_reply(info.context.services, viewer, pk, info.context.client_address())
    return ReplyChanged(turn=ConversationTurn.from_row(turn))
