"""answerFollowUp: after the model's verdict, the author answers the task's fields asked on it (`show_when` fooled or
not_fooled), once per example."""

from __future__ import annotations

import uuid
from typing import Annotated

import strawberry
from strawberry import relay
from strawberry.scalars import JSON
from strawberry.types import Info

from server import permissions
from server.annotation.examples import follow_up
from server.graphql.annotation.types import ExampleNode
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
class AnswerFollowUpInput:
    example_id: relay.GlobalID = strawberry.field(description="Your example, judged by the model (FOOLED or NOT_FOOLED).")
    fields: JSON = strawberry.field(
        description='The task\'s input fields asked on this verdict (`show_when` "fooled" or "not_fooled"), '
        'e.g. {"why": "..."}; values as in createExample (docs/task-config.md).'
    )
    client_id: uuid.UUID = strawberry.field(
        description="Client-generated: the same UUID again returns the stored answers and writes nothing."
    )


@strawberry.type
class FollowUpAnswered:
    duplicate: bool = strawberry.field(description="True when this client UUID was already stored: nothing new was written.")
    example: ExampleNode = strawberry.field(description="The example; its `input` now holds the answers.")


AnswerFollowUpResult = Annotated[
    FollowUpAnswered | InputError | NotFoundError | ConflictError | AuthenticationError | PermissionError,
    strawberry.union("AnswerFollowUpResult"),
]


@mutation(
    description="Answer the questions a task asks after the model's verdict on your example (once; refused after the "
    "example is validated)."
)
async def answer_follow_up(info: Info, input: AnswerFollowUpInput) -> AnswerFollowUpResult:
    viewer = await authorize_principal(info, permissions.annotate)
    outcome = await follow_up.answer_follow_up(
        viewer, node_pk(input.example_id, "Example", "exampleId"), input.fields, input.client_id
    )
    return FollowUpAnswered(duplicate=outcome.duplicate, example=ExampleNode.from_row(outcome.example))
