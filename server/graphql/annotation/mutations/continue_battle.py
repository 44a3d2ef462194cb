"""continueBattle: after the vote, go on talking to the side you preferred: its conversation becomes an ordinary one
(conversation(id), sendMessage, submitConversation); the other sides stay sealed."""

from __future__ import annotations

import uuid
from typing import Annotated

import strawberry
from strawberry import relay
from strawberry.types import Info

from server import permissions
from server.annotation.battles import continuing
from server.graphql.annotation.battle_types import Battle
from server.graphql.annotation.conversation_types import Conversation, conversation_of
from server.graphql.core.errors import (
    AuthenticationError,
    ConflictError,
    InputError,
    NotFoundError,
    PermissionError,
    mutation,
)
from server.graphql.core.guard import authorize_principal
from server.graphql.core.relay import node_pk


@strawberry.input
class ContinueBattleInput:
    battle_id: relay.GlobalID
    client_id: uuid.UUID = strawberry.field(description="Client-generated: the same UUID again returns the same answer.")
    side: str = strawberry.field(
        description="The side's label (A, B, C, D): one you voted for, or after a tie one of the tied sides."
    )


@strawberry.type
class BattleContinued:
    battle: Battle = strawberry.field(description="With the continued side's conversationId.")
    conversation: Conversation = strawberry.field(description="Continue it with sendMessage(conversationId).")
    duplicate: bool = strawberry.field(description="True when the side was continued already: nothing new was stored.")


ContinueBattleResult = Annotated[
    BattleContinued | InputError | NotFoundError | ConflictError | AuthenticationError | PermissionError,
    strawberry.union("ContinueBattleResult"),
]


@mutation(
    description="After your battle's vote, go on talking to the side you preferred (one side per battle, not after "
    "both bad): its conversation becomes an ordinary conversation of yours; the other sides stay sealed."
)
async def continue_battle(info: Info, input: ContinueBattleInput) -> ContinueBattleResult:
    viewer = await authorize_principal(info, permissions.annotate)
    request = continuing.ContinueRequest(
        battle_id=node_pk(input.battle_id, "Battle", "battleId"), client_id=input.client_id, side=input.side.strip().upper()
    )
    continued = await continuing.continue_battle(viewer, request)
    return BattleContinued(
        battle=Battle.from_view(continued.view),
        conversation=conversation_of(continued.conversation),
        duplicate=continued.duplicate,
    )
