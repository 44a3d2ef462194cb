"""Writing examples in GraphQL: createExample, submitExamples (the PWA outbox), retract/flag/explain, nextContext."""

from __future__ import annotations

import uuid
from datetime import datetime
from enum import Enum
from typing import Annotated

import strawberry
from strawberry import relay
from strawberry.scalars import JSON
from strawberry.types import Info

from server import permissions
from server.annotation import actions
from server.annotation import service as annotation
from server.annotation.tables import Example
from server.core.errors import FieldProblem, ServiceError, invalid
from server.graphql.core.errors import (
    AuthenticationError, ConflictError, InputError, ModelUnavailableError, NotFoundError, PermissionError,
    RateLimitedError, RoundClosedError, error_from_service,
)
from server.graphql.core.guard import as_result, authorize_principal
from server.graphql.core.relay import build_connection, check_page_size, decode_cursor, node_pk
from server.graphql.core.relay import PK_MAX, parse_pk
from server.graphql.tasks.types import ContextNode, RoundNode
from server.core.jsonutil import from_json as _json
from server.observability.metrics import count_outbox_batch
from server.tasks.contexts import next_context

MAX_BATCH = 100
# The viewer's examples, newest first, as keyset pages (id <= the cursor's id − 1): served by the
# indexes ("user", id) and ("user", round, id) on a million examples (tests/scale checks the plans).
MY_EXAMPLES = 'SELECT * FROM examples WHERE "user" = {} AND id <= {} ORDER BY id DESC LIMIT {}'
MY_EXAMPLES_IN_ROUND = 'SELECT * FROM examples WHERE "user" = {} AND round = {} AND id <= {} ORDER BY id DESC LIMIT {}'


@strawberry.enum
class Verdict(Enum):
    FOOLED = "FOOLED"
    NOT_FOOLED = "NOT_FOOLED"
    PENDING = "PENDING"


@strawberry.enum
class ContextStrategy(Enum):
    LEAST_USED = "LEAST_USED"
    UNIFORM = "UNIFORM"
    LEAST_FOOLED = "LEAST_FOOLED"


@strawberry.type
class LabelProbability:
    label: str
    probability: float


@strawberry.type
class ModelPrediction:
    model_name: str
    model_version: str
    label: str | None = None
    probabilities: list[LabelProbability] | None = None
    answer: str | None = None
    answer_start: int | None = None
    answer_end: int | None = None
    confidence: float | None = None

    @classmethod
    def from_output(cls, name: str, version: str, output: dict) -> "ModelPrediction":
        probs = output.get("probs")
        return cls(
            model_name=name, model_version=version, label=output.get("label"),
            probabilities=[LabelProbability(label=k, probability=v) for k, v in probs.items()] if probs else None,
            answer=output.get("answer"), answer_start=output.get("start"), answer_end=output.get("end"),
            confidence=output.get("confidence"),
        )


@strawberry.type(name="Example")
class ExampleNode(relay.Node):
    id: relay.NodeID[int]
    client_id: uuid.UUID
    input: JSON = strawberry.field(description="The annotator's input fields plus `label` (or `answer`, `answer_start`).")
    model_output: JSON | None
    model_name: str
    model_version: str
    fooled: bool | None
    status: str = strawberry.field(description="pending | open | closed | validated | rejected | flagged")
    retracted: bool
    flagged: bool
    flag_reason: str
    explanation: str
    time_spent_ms: float | None
    pending_reason: str
    created_at: datetime
    round_id: strawberry.Private[int]
    context_id: strawberry.Private[int]

    @classmethod
    def from_row(cls, row: dict) -> "ExampleNode":
        return cls(
            id=row["id"], client_id=row["client_id"], input=_json(row["input"]), model_output=_json(row["model_output"]),
            model_name=row["model_name"], model_version=row["model_version"], fooled=row["fooled"], status=row["status"],
            retracted=row["retracted"], flagged=row["flagged"], flag_reason=row["flag_reason"],
            explanation=row["explanation"], time_spent_ms=row["time_spent_ms"], pending_reason=row["pending_reason"],
            created_at=row["created_at"], round_id=row["round"], context_id=row["context"],
        )

    @strawberry.field
    def verdict(self) -> Verdict:
        return Verdict(annotation.verdict_of(self.fooled))

    @strawberry.field
    async def round(self, info: Info) -> RoundNode:
        return RoundNode.from_row(await info.context.loaders.round.load(self.round_id))

    @strawberry.field
    async def context(self, info: Info) -> ContextNode:
        return ContextNode.from_row(await info.context.loaders.context.load(self.context_id))

    @classmethod
    async def resolve_nodes(cls, *, info: Info, node_ids, required: bool = False):
        viewer = await info.context.viewer()
        ids = [parse_pk(i) for i in node_ids]
        rows = await Example.select().where(Example.id.is_in([i for i in ids if i] or [-1])).output(load_json=True)
        visible = {}
        for row in rows:
            round_row = await info.context.loaders.round.load(row["round"])
            if viewer and (row["user"] == viewer.user_id or permissions.is_task_owner(viewer, round_row["task"])):
                visible[row["id"]] = cls.from_row(row)
        return [visible.get(i) for i in ids]


@strawberry.type
class ExampleSubmitted:
    verdict: Verdict
    message: str
    duplicate: bool = strawberry.field(description="True when this client UUID was already stored: nothing new was written.")
    example: ExampleNode | None = strawberry.field(description="Null in sandbox mode.")
    predictions: list[ModelPrediction]


@strawberry.type
class ExampleChanged:
    example: ExampleNode


@strawberry.input
class CreateExampleInput:
    round_id: relay.GlobalID
    context_id: relay.GlobalID
    fields: JSON = strawberry.field(description="The task's input fields, e.g. {\"statement\": \"...\"}.")
    client_id: uuid.UUID | None = strawberry.field(default=None, description="Client-generated; required unless sandbox.")
    label: str | None = None
    answer: str | None = None
    answer_start: int | None = None
    explanation: str = ""
    time_spent_ms: float | None = None
    sandbox: bool = False


_Denials = AuthenticationError | PermissionError
CreateExampleResult = Annotated[
    ExampleSubmitted | InputError | NotFoundError | ConflictError | ModelUnavailableError | RoundClosedError
    | RateLimitedError | _Denials,
    strawberry.union("CreateExampleResult"),
]
ExampleChangeResult = Annotated[ExampleChanged | InputError | NotFoundError | _Denials, strawberry.union("ExampleChangeResult")]


def _submitted(outcome: annotation.Outcome) -> ExampleSubmitted:
    return ExampleSubmitted(
        verdict=Verdict(outcome.verdict), message=outcome.message, duplicate=outcome.duplicate,
        example=ExampleNode.from_row(outcome.example) if outcome.example else None,
        predictions=[ModelPrediction.from_output(p.model_name, p.model_version, p.output) for p in outcome.predictions],
    )


async def _create(info: Info, data: CreateExampleInput):
    viewer = await authorize_principal(info, permissions.annotate)
    submission = annotation.Submission(
        round_id=node_pk(data.round_id, "Round", "roundId"),
        context_id=node_pk(data.context_id, "Context", "contextId"),
        fields=data.fields,
        intended=data.label if data.label is not None else data.answer,
        client_id=data.client_id,
        answer_start=data.answer_start,
        explanation=data.explanation,
        time_spent_ms=data.time_spent_ms,
        sandbox=data.sandbox,
    )
    return _submitted(await annotation.create_example(info.context.services, viewer.user_id, submission))


@strawberry.type
class AnnotationQueries:
    @strawberry.field(description="A context of the round to write against; least-used first by default.")
    async def next_context(self, info: Info, round_id: relay.GlobalID, strategy: ContextStrategy = ContextStrategy.LEAST_USED) -> ContextNode:
        await authorize_principal(info, permissions.read_public)
        row = await next_context(node_pk(round_id, "Round", "roundId"), strategy.value)
        annotation.remember_context(row)  # the viewer is about to write against it
        return ContextNode.from_row(row)

    @strawberry.field(description="The viewer's own examples, newest first.")
    async def my_examples(self, info: Info, round_id: relay.GlobalID | None = None, first: int = 20, after: str | None = None) -> relay.Connection[ExampleNode]:
        viewer = await authorize_principal(info, permissions.read_own_account)
        first = check_page_size(first, info.context.services.settings.page_size_max)
        after_id = decode_cursor(after)
        below = after_id - 1 if after_id is not None else PK_MAX
        if round_id is None:
            rows = await Example.raw(MY_EXAMPLES, viewer.user_id, below, first + 1)
        else:
            rows = await Example.raw(MY_EXAMPLES_IN_ROUND, viewer.user_id, node_pk(round_id, "Round", "roundId"), below, first + 1)
        return build_connection(rows, first, after_id, ExampleNode.from_row)


@strawberry.type
class AnnotationMutations:
    @strawberry.mutation(description="Ask the round's target model about a new example; store it unless sandbox.")
    async def create_example(self, info: Info, input: CreateExampleInput) -> CreateExampleResult:
        return await as_result(lambda: _create(info, input))

    @strawberry.mutation(description="The offline outbox: up to 100 examples, one result each, idempotent on clientId.")
    async def submit_examples(self, info: Info, inputs: list[CreateExampleInput]) -> list[CreateExampleResult]:
        if len(inputs) > MAX_BATCH:
            error = invalid(f"At most {MAX_BATCH} examples per batch.", FieldProblem("inputs", "too many"))
            count_outbox_batch(["error"] * len(inputs))
            return [error_from_service(error)] * len(inputs)
        results = []
        for data in inputs:  # in order: a client's outbox is replayed in the order it was written
            if data.sandbox:
                results.append(error_from_service(invalid("Sandbox examples are not batched.", FieldProblem("sandbox", "must be false"))))
                continue
            results.append(await as_result(lambda data=data: _create(info, data)))
        count_outbox_batch([_outbox_result(r) for r in results])
        return results

    @strawberry.mutation
    async def retract_example(self, info: Info, example_id: relay.GlobalID) -> ExampleChangeResult:
        async def run():
            viewer = await authorize_principal(info, permissions.annotate)
            row = await actions.retract_example(node_pk(example_id, "Example", "exampleId"), viewer.user_id)
            await _publish_round(info, row["round"])
            return ExampleChanged(example=ExampleNode.from_row(row))

        return await as_result(run)

    @strawberry.mutation
    async def flag_example(self, info: Info, example_id: relay.GlobalID, reason: str = "") -> ExampleChangeResult:
        async def run():
            viewer = await authorize_principal(info, permissions.annotate)
            row = await actions.flag_example(node_pk(example_id, "Example", "exampleId"), viewer.user_id, reason)
            return ExampleChanged(example=ExampleNode.from_row(row))

        return await as_result(run)

    @strawberry.mutation
    async def explain_example(self, info: Info, example_id: relay.GlobalID, explanation: str) -> ExampleChangeResult:
        async def run():
            viewer = await authorize_principal(info, permissions.annotate)
            row = await actions.explain_example(node_pk(example_id, "Example", "exampleId"), viewer.user_id, explanation)
            return ExampleChanged(example=ExampleNode.from_row(row))

        return await as_result(run)


def _outbox_result(result) -> str:
    if isinstance(result, ExampleSubmitted):
        return "duplicate" if result.duplicate else "new"
    return "error"


async def _publish_round(info: Info, round_id: int) -> None:
    from server.core import events

    await events.publish(info.context.services.redis, events.RoundStatsChanged(round_id=round_id))
