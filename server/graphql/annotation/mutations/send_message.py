"""sendMessage: a message to a generative target; its reply streams through replyStream(turnId)."""

from __future__ import annotations

import uuid
from typing import Annotated

import strawberry
from strawberry import relay
from strawberry.types import Info

from server import permissions
from server.annotation.conversations import service
from server.graphql.annotation.conversation_types import Conversation, ConversationTurn, conversation_of
from server.graphql.core.errors import (
    AuthenticationError,
    ConflictError,
    InputError,
    ModelUnavailableError,
    NotFoundError,
    PermissionError,
    RateLimitedError,
    RoundClosedError,
    mutation,
)
from server.graphql.core.guard import authorize_principal
from server.graphql.core.relay import node_pk


@strawberry.input
class SendMessageInput:
    round_id: relay.GlobalID
    context_id: relay.GlobalID
    conversation_id: relay.GlobalID | None = strawberry.field(
        default=None, description="Null: the message starts a conversation."
    )
    client_id: uuid.UUID = strawberry.field(description="Client-generated: the same UUID again returns the same turn.")
    message: str


@strawberry.type
class MessageSent:
    conversation: Conversation
    turn: ConversationTurn = strawberry.field(description="Subscribe to replyStream(turnId: turn.id) for the reply.")
    duplicate: bool = strawberry.field(description="True when this client UUID was already used: nothing new was sent.")


SendMessageResult = Annotated[
    MessageSent
    | InputError
    | NotFoundError
    | ConflictError
    | ModelUnavailableError
    | RoundClosedError
    | RateLimitedError
    | AuthenticationError
    | PermissionError,
    strawberry.union("SendMessageResult"),
]


@mutation(description="Send a message to the round's generative target (starting a conversation, or in one).")
async def send_message(info: Info, input: SendMessageInput) -> SendMessageResult:
    viewer = await authorize_principal(info, permissions.annotate)
    message = service.Message(
        round_id=node_pk(input.round_id, "Round", "roundId"),
        context_id=node_pk(input.context_id, "Context", "contextId"),
        conversation_id=None
        if input.conversation_id is None
        else node_pk(input.conversation_id, "Conversation", "conversationId"),
        client_id=input.client_id,
        text=input.message,
    )
    sent = await service.send_message(info.context.services, viewer, message, info.context.client_address())
    return MessageSent(
        conversation=conversation_of(sent.loaded), turn=ConversationTurn.from_row(sent.turn), duplicate=sent.duplicate
    )
