"""validateExample: a vote on someone else's example (owner mode: the task's owners decide at once)."""

from __future__ import annotations

from typing import Annotated, cast

import strawberry
from strawberry import relay
from strawberry.scalars import JSON
from strawberry.types import Info

from server import permissions
from server.annotation.validation import lookup, voting
from server.graphql.annotation.types import ExampleNode, Validation, ValidationLabel, ValidationMode
from server.graphql.core.errors import AuthenticationError, ConflictError, InputError, NotFoundError, PermissionError, mutation
from server.graphql.core.guard import authorize
from server.graphql.core.relay import node_pk


@strawberry.type
class ExampleValidated:
    validation: Validation
    example: ExampleNode


ValidateExampleResult = Annotated[
    ExampleValidated | InputError | NotFoundError | ConflictError | PermissionError | AuthenticationError,
    strawberry.union("ValidateExampleResult"),
]


@mutation()
async def validate_example(
    info: Info,
    example_id: relay.GlobalID,
    label: ValidationLabel,
    mode: ValidationMode = ValidationMode.USER,
    note: str = "",
    fields: Annotated[
        JSON | None,
        strawberry.argument(
            description="The task's validator fields asked with this vote (`validator_fields` whose `show_when` is "
            '"always" or the vote), e.g. {"corrected_label": "negative"}.'
        ),
    ] = None,
) -> ValidateExampleResult:
    viewer = await authorize(info, permissions.validate, mode == ValidationMode.OWNER)
    pk = node_pk(example_id, "Example", "exampleId")
    vote = await voting.validate_example(info.context.services, viewer, pk, label.value, mode.value, note, fields)
    row = await lookup.example(pk)
    return ExampleValidated(
        validation=Validation(
            label=ValidationLabel(vote["label"]),
            mode=ValidationMode(vote["mode"]),
            note=vote["note"],
            fields=cast(JSON, vote.get("fields") or {}),
        ),
        example=ExampleNode.from_row(row),
    )
