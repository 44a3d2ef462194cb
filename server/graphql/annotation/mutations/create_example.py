"""createExample: ask the round's target model about a new example and store it (unless sandbox)."""

from __future__ import annotations

import uuid
from typing import Annotated

import strawberry
from strawberry import relay
from strawberry.scalars import JSON
from strawberry.types import Info

from server import permissions
from server.annotation.examples import service
from server.core.i18n import localize
from server.graphql.annotation.types import ExampleNode, ModelPrediction, Verdict
from server.graphql.core.errors import (
    AuthenticationError,
    ConflictError,
    DuplicateExampleError,
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
class CreateExampleInput:
    round_id: relay.GlobalID
    context_id: relay.GlobalID
    fields: JSON = strawberry.field(description='The task\'s input fields, e.g. {"statement": "..."}.')
    client_id: uuid.UUID | None = strawberry.field(default=None, description="Client-generated; required unless sandbox.")
    label: str | None = None
    answer: str | None = None
    answer_start: int | None = None
    explanation: str = ""
    time_spent_ms: float | None = None
    sandbox: bool = False
    suggestion_id: relay.GlobalID | None = strawberry.field(
        default=None, description="Written from this suggestion (suggestExamples): the example records it (`assistance`)."
    )


@strawberry.type
class ExampleSubmitted:
    verdict: Verdict
    message: str
    duplicate: bool = strawberry.field(description="True when this client UUID was already stored: nothing new was written.")
    example: ExampleNode | None = strawberry.field(description="Null in sandbox mode.")
    predictions: list[ModelPrediction]


CreateExampleResult = Annotated[
    ExampleSubmitted
    | InputError
    | NotFoundError
    | ConflictError
    | DuplicateExampleError
    | ModelUnavailableError
    | RoundClosedError
    | RateLimitedError
    | AuthenticationError
    | PermissionError,
    strawberry.union("CreateExampleResult"),
]


def submitted(outcome: service.Outcome) -> ExampleSubmitted:
    return ExampleSubmitted(
        verdict=outcome.verdict,
        message=localize(outcome.message),
        duplicate=outcome.duplicate,
        example=ExampleNode.from_row(outcome.example) if outcome.example else None,
        predictions=[ModelPrediction.from_output(p.model_name, p.model_version, p.output) for p in outcome.predictions],
    )


async def create(info: Info, data: CreateExampleInput) -> ExampleSubmitted:
    """One example (shared with submitExamples)."""
    viewer = await authorize_principal(info, permissions.annotate)
    submission = service.Submission(
        round_id=node_pk(data.round_id, "Round", "roundId"),
        context_id=node_pk(data.context_id, "Context", "contextId"),
        fields=data.fields,
        intended=data.label if data.label is not None else data.answer,
        client_id=data.client_id,
        answer_start=data.answer_start,
        explanation=data.explanation,
        time_spent_ms=data.time_spent_ms,
        sandbox=data.sandbox,
        suggestion_id=node_pk(data.suggestion_id, "Suggestion", "suggestionId") if data.suggestion_id is not None else None,
    )
    context = info.context
    return submitted(await service.create_example(context.services, viewer.user_id, submission, context.client_address()))


@mutation(description="Ask the round's target model about a new example; store it unless sandbox.")
async def create_example(info: Info, input: CreateExampleInput) -> CreateExampleResult:
    return await create(info, input)
