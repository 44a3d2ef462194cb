"""GraphQL types of writing and validating examples: the Example node, predictions, votes, queue updates, numbers."""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from datetime import datetime
from enum import Enum
from typing import Annotated

import strawberry
from strawberry import relay
from strawberry.scalars import JSON
from strawberry.types import Info

from server import permissions
from server.annotation import records
from server.annotation.examples import queries as example_queries
from server.annotation.examples.judging import verdict_of
from server.annotation.records import ValidationLabel, ValidationMode, Verdict
from server.annotation.validation import stats
from server.core.jsonutil import from_json
from server.graphql.accounts.types import UserNode
from server.graphql.annotation.adversary_types import MachineMade
from server.graphql.core.errors import AuthenticationError, InputError, NotFoundError, PermissionError
from server.graphql.core.relay import parse_pk
from server.graphql.tasks.types import ContextNode, RoundNode

# The domain's own enums are the GraphQL enums (named by their members: FOOLED, CORRECT, USER, ...).
strawberry.enum(Verdict)
strawberry.enum(ValidationLabel)
strawberry.enum(ValidationMode)


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
    def from_output(cls, name: str, version: str, output: dict) -> ModelPrediction:
        probs = output.get("probs")
        return cls(
            model_name=name,
            model_version=version,
            label=output.get("label"),
            probabilities=[LabelProbability(label=k, probability=v) for k, v in probs.items()] if probs else None,
            answer=output.get("answer"),
            answer_start=output.get("start"),
            answer_end=output.get("end"),
            confidence=output.get("confidence"),
        )


@strawberry.type
class ExampleAssistance:
    suggestion_id: relay.GlobalID
    kind: str = strawberry.field(description="generator | perturbation")
    source: str = strawberry.field(description="The generator's name, or the target model the perturbation search asked.")
    source_version: str
    edited: bool = strawberry.field(description="Whether the author changed the suggestion's text before submitting.")

    @classmethod
    def of(cls, doc: dict) -> ExampleAssistance:
        return cls(
            suggestion_id=relay.GlobalID("Suggestion", str(doc["suggestion_id"])),
            kind=str(doc["kind"]),
            source=str(doc.get("source") or ""),
            source_version=str(doc.get("version") or ""),
            edited=bool(doc.get("edited")),
        )


@strawberry.type(name="Example")
class ExampleNode(relay.Node):
    id: relay.NodeID[int]
    client_id: uuid.UUID
    input: JSON = strawberry.field(
        description="The annotator's input fields (with the answers given after the verdict, answerFollowUp) plus `label` "
        "(or `answer`, `answer_start`)."
    )
    model_output: JSON | None
    model_name: str
    model_version: str
    fooled: bool | None
    status: str = strawberry.field(
        description="pending | awaiting_claim (fooling ask_user: its author says whether the model got it wrong) | open "
        "| closed | validated | rejected | flagged"
    )
    retracted: bool
    flagged: bool
    flag_reason: str
    explanation: str
    time_spent_ms: float | None
    pending_reason: str
    created_at: datetime
    round_id: strawberry.Private[int]
    context_id: strawberry.Private[int]
    claimed: strawberry.Private[bool] = False
    follow_up_answered: bool = strawberry.field(
        default=False,
        description="Whether the author answered the fields asked after the verdict (answerFollowUp); the answers "
        "are in `input`.",
    )

    assisted_by: strawberry.Private[dict | None] = None

    @classmethod
    def from_row(cls, row: records.ExampleRow | dict) -> ExampleNode:
        return cls(
            id=row["id"],
            client_id=row["client_id"],
            input=from_json(row["input"]),
            model_output=from_json(row["model_output"]),
            model_name=row["model_name"],
            model_version=row["model_version"],
            fooled=row["fooled"],
            status=row["status"],
            retracted=row["retracted"],
            flagged=row["flagged"],
            flag_reason=row["flag_reason"],
            explanation=row["explanation"],
            time_spent_ms=row["time_spent_ms"],
            pending_reason=row["pending_reason"],
            created_at=row["created_at"],
            round_id=row["round"],
            context_id=row["context"],
            claimed=row.get("claim_client_id") is not None,
            follow_up_answered=row.get("follow_up_client_id") is not None,
            assisted_by=from_json(row.get("assisted_by")),
        )

    @strawberry.field
    def verdict(self) -> Verdict:
        return verdict_of(self.fooled, self.status)

    @strawberry.field(
        description="Tasks whose annotators judge the model (fooling ask_user): the author's claim that the model got it "
        "wrong (`claimFooled`), null until they answer and on other tasks. Validators confirm or reject it; only a "
        "confirmed claim counts in vMER."
    )
    def claimed_fooled(self) -> bool | None:
        return self.fooled if self.claimed else None

    @strawberry.field(description="Written from a suggestion (docs/design.md §4.1e): what made it; null otherwise.")
    def assistance(self) -> ExampleAssistance | None:
        if not self.assisted_by or self.assisted_by.get("kind") == "machine":
            return None
        return ExampleAssistance.of(self.assisted_by)

    @strawberry.field(
        description="Written by an adversary run (docs/design.md §4.1f): the run and its generator; null for people's."
    )
    def machine_made(self) -> MachineMade | None:
        doc = self.assisted_by
        if not doc or doc.get("kind") != "machine":
            return None
        run_id = relay.GlobalID("AdversaryRun", str(doc.get("run")))
        return MachineMade(run_id=run_id, source=str(doc.get("source") or ""), source_version=str(doc.get("version") or ""))

    @strawberry.field
    async def round(self, info: Info) -> RoundNode:
        return RoundNode.from_row(await info.context.loaders.round.load(self.round_id))

    @strawberry.field
    async def context(self, info: Info) -> ContextNode:
        return ContextNode.from_row(await info.context.loaders.context.load(self.context_id))

    @classmethod
    async def resolve_nodes(cls, *, info: Info, node_ids: Iterable[str], required: bool = False):
        """One query for the examples, one batch for their rounds; visible to their authors and the task's owners."""
        viewer = await info.context.viewer()
        ids = [parse_pk(i) for i in node_ids]
        rows = await example_queries.examples_by_ids([i for i in ids if i] or [-1])
        rounds = await info.context.loaders.round.load_many([row["round"] for row in rows])
        visible = {
            row["id"]: cls.from_row(row)
            for row, round_row in zip(rows, rounds)
            if permissions.can_view_example(viewer, row, round_row["task"])
        }
        return [visible.get(i) for i in ids]


@strawberry.type
class ExampleChanged:
    example: ExampleNode


_Denials = AuthenticationError | PermissionError
# retractExample, flagExample and explainExample answer alike.
ExampleChangeResult = Annotated[ExampleChanged | InputError | NotFoundError | _Denials, strawberry.union("ExampleChangeResult")]


@strawberry.type
class Validation:
    label: ValidationLabel
    mode: ValidationMode
    note: str
    fields: JSON = strawberry.field(default_factory=dict, description="The task's validator fields answered with the vote.")


@strawberry.type
class ValidationQueueUpdate:
    added: list[ExampleNode] = strawberry.field(description="Examples now available to this validator.")
    removed_ids: list[relay.GlobalID] = strawberry.field(
        description="Examples that left the queue (decided, retracted, or voted on by you): sent to the validators who may show them (in this feed, voted on, or handed out to them by nextExamplesToValidate)."
    )
    reset: bool = strawberry.field(
        default=False,
        description="True when `added` is the whole queue (the first update, and after the server lost its event "
        "stream for a moment): replace what you hold rather than merging.",
    )
    waiting: ValidationWaiting | None = strawberry.field(
        default=None,
        description="How many examples wait for this validator in all: with a reset (`added` holds the first of them), "
        "and on its own (absolute, replacing the count held) when examples beyond the ones sent arrive or are decided: "
        "a validator holds at most 20 examples sent live; the rest are counted here and sent as the held ones go. "
        "Between these, updates change it by what they add and remove.",
    )


@strawberry.type
class ValidationWaiting:
    count: int = strawberry.field(description="Examples waiting for this validator's vote, up to `cap`.")
    capped: bool = strawberry.field(description="True when there are at least `count` (the count stopped at its cap).")


@strawberry.type
class UserStatsRow:
    rank: int
    user: UserNode
    submitted: int
    fooled: int
    verified_fooled: int = strawberry.field(description="fooled − fooled-but-rejected")
    verified_mer: float | None = strawberry.field(description="verified fooled / submitted")
    validations_done: int

    @classmethod
    def from_stats(cls, rank: int, s: stats.UserStats, user_row: dict) -> UserStatsRow:
        return cls(
            rank=rank,
            user=UserNode.from_row(user_row),
            submitted=s.submitted,
            fooled=s.fooled,
            verified_fooled=s.verified_fooled,
            verified_mer=s.verified_mer,
            validations_done=s.validations_done,
        )


@strawberry.type
class Badge:
    name: str
    description: str
