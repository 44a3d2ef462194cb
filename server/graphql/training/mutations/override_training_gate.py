"""overrideTrainingGate: task owners offer a version the retraining gate rejected, with a reason (audited)."""

from __future__ import annotations

from typing import Annotated

import strawberry
from strawberry import relay
from strawberry.types import Info

from server import permissions
from server.graphql.core.errors import AuthenticationError, ConflictError, InputError, NotFoundError, PermissionError, mutation
from server.graphql.core.guard import authorize
from server.graphql.core.relay import node_pk
from server.graphql.training.types import TrainingRunNode
from server.training import service as training


@strawberry.type
class TrainingGateOverridden:
    run: TrainingRunNode = strawberry.field(description="The run, now published, with who overrode the gate and why.")


OverrideTrainingGateResult = Annotated[
    TrainingGateOverridden | InputError | NotFoundError | ConflictError | AuthenticationError | PermissionError,
    strawberry.union("OverrideTrainingGateResult"),
]


@mutation(
    description=(
        "Task owners: offer a version the retraining gate rejected as the next round's target anyway (then "
        "`openNextRound` accepts it). `reason` is required (at most 500 characters); the run shows who overrode the "
        "gate and why, and the admins' audit log records it."
    )
)
async def override_training_gate(info: Info, run_id: relay.GlobalID, reason: str) -> OverrideTrainingGateResult:
    run = await training.get_run(node_pk(run_id, "TrainingRun", "runId"))
    viewer = await authorize(info, permissions.override_training_gate, run["task"])
    row = await training.override_gate(info.context.services, viewer, run, reason)
    return TrainingGateOverridden(run=TrainingRunNode.from_row(row))
