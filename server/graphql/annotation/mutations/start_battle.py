"""startBattle: one prompt answered side by side by anonymous targets; each side's reply streams through
replyStream(turnId)."""

from __future__ import annotations

import uuid
from typing import Annotated

import strawberry
from strawberry import relay
from strawberry.types import Info

from server import permissions
from server.annotation.battles import service
from server.graphql.annotation.battle_types import Battle
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
class StartBattleInput:
    round_id: relay.GlobalID
    context_id: relay.GlobalID
    client_id: uuid.UUID = strawberry.field(description="Client-generated: the same UUID again returns the same battle.")
    message: str


@strawberry.type
class BattleStarted:
    battle: Battle = strawberry.field(description="Subscribe to replyStream(turnId) of each side; the models stay hidden.")
    duplicate: bool = strawberry.field(description="True when this client UUID was already used: nothing new was asked.")


StartBattleResult = Annotated[
    BattleStarted
    | InputError
    | NotFoundError
    | ConflictError
    | ModelUnavailableError
    | RoundClosedError
    | RateLimitedError
    | AuthenticationError
    | PermissionError,
    strawberry.union("StartBattleResult"),
]


@mutation(description="Ask a battle task's round a prompt: 2–4 anonymous targets answer it side by side.")
async def start_battle(info: Info, input: StartBattleInput) -> StartBattleResult:
    viewer = await authorize_principal(info, permissions.annotate)
    start = service.BattleStart(
        round_id=node_pk(input.round_id, "Round", "roundId"),
        context_id=node_pk(input.context_id, "Context", "contextId"),
        client_id=input.client_id,
        text=input.message,
    )
    started = await service.start_battle(info.context.services, viewer, start, info.context.client_address())
    return BattleStarted(battle=Battle.from_view(started.view), duplicate=started.duplicate)
