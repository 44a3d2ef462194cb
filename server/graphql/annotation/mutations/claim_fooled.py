"""claimFooled: on a task whose annotators judge the model (fooling ask_user), the author of an example says
whether the model got it wrong, once; validators then confirm or reject the claim."""

from __future__ import annotations

import uuid
from typing import Annotated

import strawberry
from strawberry import relay
from strawberry.types import Info

from server import permissions
from server.annotation.examples import claiming
from server.core.i18n import localize
from server.graphql.annotation.types import ExampleNode, Verdict
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
class ClaimFooledInput:
    example_id: relay.GlobalID = strawberry.field(description="Your example, awaiting your claim (verdict AWAITING_CLAIM).")
    model_was_wrong: bool = strawberry.field(description="Your answer to “Did the model get it wrong?”")
    client_id: uuid.UUID = strawberry.field(
        description="Client-generated: the same UUID again returns the stored claim and writes nothing."
    )


@strawberry.type
class FoolingClaimed:
    verdict: Verdict = strawberry.field(description="FOOLED or NOT_FOOLED, as you claimed (until validators decide).")
    message: str
    duplicate: bool = strawberry.field(description="True when this client UUID was already stored: nothing new was written.")
    example: ExampleNode


ClaimFooledResult = Annotated[
    FoolingClaimed | InputError | NotFoundError | ConflictError | AuthenticationError | PermissionError,
    strawberry.union("ClaimFooledResult"),
]


@mutation(description="Say whether the model got your example wrong (tasks with fooling ask_user); validators confirm it.")
async def claim_fooled(info: Info, input: ClaimFooledInput) -> ClaimFooledResult:
    viewer = await authorize_principal(info, permissions.annotate)
    outcome = await claiming.claim_fooled(
        info.context.services,
        viewer,
        node_pk(input.example_id, "Example", "exampleId"),
        input.model_was_wrong,
        input.client_id,
    )
    return FoolingClaimed(
        verdict=outcome.verdict,
        message=localize(outcome.message),
        duplicate=outcome.duplicate,
        example=ExampleNode.from_row(outcome.example),
    )
