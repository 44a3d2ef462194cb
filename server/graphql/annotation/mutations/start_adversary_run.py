"""startAdversaryRun: a task's owner runs its generator against a round's target, unattended (docs/design.md §4.1f)."""

from __future__ import annotations

import uuid
from typing import Annotated

import strawberry
from strawberry import relay
from strawberry.types import Info

from server import permissions
from server.annotation.adversary import rules, service
from server.graphql.annotation.adversary_types import AdversaryRun
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
from server.graphql.core.guard import authorize
from server.graphql.core.relay import node_pk
from server.graphql.tasks.visibility import owned_round


@strawberry.input
class StartAdversaryRunInput:
    round_id: relay.GlobalID
    client_id: uuid.UUID = strawberry.field(description="Client-generated: the same UUID again answers the same run.")
    count: int = strawberry.field(description=f"Examples to write, 1 to {rules.MAX_COUNT}.")
    generator: str | None = strawberry.field(
        default=None,
        description="A generative model the target Triton serves, or endpoint:<name> (a registered LLM endpoint); "
        "default: the task's suggestions generator.",
    )


@strawberry.type
class AdversaryRunStarted:
    run: AdversaryRun
    duplicate: bool = strawberry.field(description="The client UUID was seen before: this is the run it started.")


StartAdversaryRunResult = Annotated[
    AdversaryRunStarted
    | InputError
    | NotFoundError
    | ConflictError
    | ModelUnavailableError
    | RoundClosedError
    | RateLimitedError
    | AuthenticationError
    | PermissionError,
    strawberry.union("StartAdversaryRunResult"),
]


@mutation(
    description="Task owners: the task's generator writes `count` examples against the round's target, unattended; "
    "they enter validation like people's, marked machine-made. One run at a time per task; each example counts "
    "against the owner's submission rate limit, the generator's calls against their LLM endpoint budgets."
)
async def start_adversary_run(info: Info, input: StartAdversaryRunInput) -> StartAdversaryRunResult:
    round_row = await owned_round(info, node_pk(input.round_id, "Round", "roundId"))
    viewer = await authorize(info, permissions.manage_task, round_row["task"])
    assert viewer is not None
    row, duplicate = await service.start_run(
        info.context.services, viewer.user_id, round_row, input.client_id, input.count, input.generator
    )
    return AdversaryRunStarted(run=AdversaryRun.from_row(row), duplicate=duplicate)
