"""actOnExamples: task owners act on up to 100 examples at once (owner votes, resolve authors' flags, retract);
each example succeeds or fails on its own, and each action done joins the example's history."""

from __future__ import annotations

from enum import Enum
from typing import Annotated

import strawberry
from strawberry import relay
from strawberry.types import Info

from server import permissions
from server.annotation.browse import service
from server.core.i18n import localize
from server.graphql.annotation.types import ExampleNode
from server.graphql.core.errors import AuthenticationError, InputError, PermissionError, mutation
from server.graphql.core.guard import authorize
from server.graphql.core.relay import node_pk


@strawberry.enum(description="What to do to each example.")
class ExampleBulkAction(Enum):
    VALIDATE_CORRECT = service.BulkAction.VALIDATE_CORRECT.value
    VALIDATE_INCORRECT = service.BulkAction.VALIDATE_INCORRECT.value
    VALIDATE_FLAGGED = service.BulkAction.VALIDATE_FLAGGED.value
    RESOLVE_FLAG = service.BulkAction.RESOLVE_FLAG.value
    RETRACT = service.BulkAction.RETRACT.value


@strawberry.type
class ExampleActionOutcome:
    example_id: relay.GlobalID
    done: bool
    code: str | None = strawberry.field(description="Why it was not done (NOT_FOUND, CONFLICT, FORBIDDEN...).")
    message: str
    example: ExampleNode | None = strawberry.field(description="The example afterwards (null when not found).")


@strawberry.type
class ExamplesActedOn:
    outcomes: list[ExampleActionOutcome]


ActOnExamplesResult = Annotated[
    ExamplesActedOn | InputError | PermissionError | AuthenticationError, strawberry.union("ActOnExamplesResult")
]


@mutation(description="Task owners: act on up to 100 examples at once; each succeeds or fails on its own.")
async def act_on_examples(
    info: Info, example_ids: list[relay.GlobalID], action: ExampleBulkAction, note: str = ""
) -> ActOnExamplesResult:
    viewer = await authorize(info, permissions.validate, True)  # owner operations: tokens need the admin scope
    ids = [node_pk(example_id, "Example", "exampleIds") for example_id in example_ids]
    outcomes = await service.bulk(info.context.services, viewer, ids, action.value, note)
    return ExamplesActedOn(
        outcomes=[
            ExampleActionOutcome(
                example_id=relay.GlobalID("Example", str(o.example_id)),
                done=o.code is None,
                code=o.code,
                message=localize(o.message),
                example=ExampleNode.from_row(o.example) if o.example is not None else None,
            )
            for o in outcomes
        ]
    )
