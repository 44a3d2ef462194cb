"""voteBattle: the author's blind vote on their battle, once every reply ended; the answer names each side's model."""

from __future__ import annotations

import uuid
from typing import Annotated

import strawberry
from strawberry import relay
from strawberry.types import Info

from server import permissions
from server.annotation.battles import service
from server.annotation.records import BattleChoice as DomainBattleChoice
from server.graphql.annotation.battle_types import Battle, BattleChoice
from server.graphql.core.errors import (
    AuthenticationError,
    ConflictError,
    InputError,
    NotFoundError,
    PermissionError,
    RateLimitedError,
    mutation,
)
from server.graphql.core.guard import authorize_principal
from server.graphql.core.relay import node_pk


@strawberry.input
class VoteBattleInput:
    battle_id: relay.GlobalID
    client_id: uuid.UUID = strawberry.field(description="Client-generated: the same UUID again returns the same vote.")
    choice: BattleChoice | None = strawberry.field(
        default=None,
        description="Null only with ratings: the side rated highest; several rated highest: a tie (both bad when "
        "every side has the field's lowest value). A side chosen may not be rated below another.",
    )
    ratings: list[float] | None = strawberry.field(
        default=None,
        description="A task with Battle.ratingField: each side's rating in side order (A, B, …), in that field's range.",
    )


@strawberry.type
class BattleVoted:
    battle: Battle = strawberry.field(description="With the vote, and each side's model name and version.")
    duplicate: bool = strawberry.field(description="True when this client UUID was already used: nothing new was stored.")


VoteBattleResult = Annotated[
    BattleVoted | InputError | NotFoundError | ConflictError | RateLimitedError | AuthenticationError | PermissionError,
    strawberry.union("VoteBattleResult"),
]


@mutation(
    description="Vote on your battle (once, after every reply ended): a side, a tie or both bad, and each side's "
    "rating when the task asks for it."
)
async def vote_battle(info: Info, input: VoteBattleInput) -> VoteBattleResult:
    viewer = await authorize_principal(info, permissions.annotate)
    request = service.BattleVoteRequest(
        battle_id=node_pk(input.battle_id, "Battle", "battleId"),
        client_id=input.client_id,
        choice=None if input.choice is None else DomainBattleChoice(input.choice.value),
        ratings=None if input.ratings is None else tuple(input.ratings),
    )
    voted = await service.vote_battle(info.context.services, viewer, request)
    return BattleVoted(battle=Battle.from_view(voted.view), duplicate=voted.duplicate)
