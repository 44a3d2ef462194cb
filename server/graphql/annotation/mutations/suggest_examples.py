"""suggestExamples: candidate examples for the author ("inspire me"), from the task's generator or a perturbation
search on the draft; each is issued (stored) so that an example written from it records it (docs/design.md §4.1e)."""

from __future__ import annotations

import uuid
from enum import Enum
from typing import Annotated

import strawberry
from strawberry import relay
from strawberry.scalars import JSON
from strawberry.types import Info

from server import permissions
from server.annotation.suggestions import service
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


@strawberry.enum(description="Where suggestions come from.")
class SuggestionKind(Enum):
    GENERATOR = "generator"
    PERTURBATION = "perturbation"


@strawberry.input
class SuggestExamplesInput:
    round_id: relay.GlobalID
    context_id: relay.GlobalID
    kind: SuggestionKind
    client_id: uuid.UUID = strawberry.field(description="Client-generated: the same UUID again returns the same suggestions.")
    fields: JSON | None = strawberry.field(
        default=None,
        description="The author's draft (input fields): required by PERTURBATION, a hint to GENERATOR (optional).",
    )


@strawberry.type
class SuggestionTargetAnswer:
    label: str = strawberry.field(description="The round's target model's label on the suggestion.")
    confidence: float = strawberry.field(description="The target's probability of the label it gave the draft.")
    flipped: bool = strawberry.field(description="Whether the target's label differs from its label on the draft.")
    edits: list[str] = strawberry.field(description="What was changed in the draft, e.g. 'delete \"great\"'.")


@strawberry.type
class Suggestion:
    id: relay.GlobalID = strawberry.field(description="Give it as createExample's (or submitConversation's) suggestionId.")
    kind: SuggestionKind
    source: str = strawberry.field(
        description="The generator's name (endpoint:<name> for an LLM endpoint), or the target model the search asked."
    )
    source_version: str
    fields: JSON = strawberry.field(
        description='The input fields it fills, e.g. {"statement": "..."}; a generative task\'s {"message": "..."} is an '
        "opening message."
    )
    label: str | None = strawberry.field(description="The label the generator meant, when it gave one of the task's.")
    target: SuggestionTargetAnswer | None = strawberry.field(description="PERTURBATION: the round's target on it.")

    @classmethod
    def of(cls, issued: service.Issued) -> Suggestion:
        answer = issued.prediction
        return cls(
            id=relay.GlobalID("Suggestion", str(issued.id)),
            kind=SuggestionKind(issued.kind),
            source=issued.source,
            source_version=issued.version,
            fields=issued.fields,
            label=issued.label,
            target=SuggestionTargetAnswer(
                label=str(answer["label"]),
                confidence=float(answer["confidence"]),
                flipped=bool(answer["flipped"]),
                edits=[str(e) for e in answer.get("edits") or []],
            )
            if answer
            else None,
        )


@strawberry.type
class SuggestionsIssued:
    suggestions: list[Suggestion] = strawberry.field(description="Best first; may be empty (nothing usable this time).")


SuggestExamplesResult = Annotated[
    SuggestionsIssued
    | InputError
    | NotFoundError
    | ConflictError
    | ModelUnavailableError
    | RoundClosedError
    | RateLimitedError
    | AuthenticationError
    | PermissionError,
    strawberry.union("SuggestExamplesResult"),
]


@mutation(
    description="Candidate examples to edit and submit: from the task's generator (prompted with its goal, the context "
    "and the label set), or, on classifier tasks, edits of the draft that flip the round's target's label. Rate-limited "
    "per account and address; an LLM endpoint's budgets count it."
)
async def suggest_examples(info: Info, input: SuggestExamplesInput) -> SuggestExamplesResult:
    viewer = await authorize_principal(info, permissions.annotate)
    request = service.Request(
        round_id=node_pk(input.round_id, "Round", "roundId"),
        context_id=node_pk(input.context_id, "Context", "contextId"),
        kind=service.Kind(input.kind.value),
        client_id=input.client_id,
        fields=input.fields,
    )
    context = info.context
    issued = await service.suggest(context.services, viewer.user_id, request, context.client_address())
    return SuggestionsIssued(suggestions=[Suggestion.of(item) for item in issued])
