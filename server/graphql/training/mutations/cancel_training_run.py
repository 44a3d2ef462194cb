"""cancelTrainingRun: task owners stop a queued or running retraining (the current target keeps serving)."""

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
class TrainingRunCancelled:
    run: TrainingRunNode = strawberry.field(
        description="The run: cancelled at once when it was queued; a running one has `cancelRequested` and ends "
        "cancelled at its next training step (follow it with `trainingRunUpdated`)."
    )


CancelTrainingRunResult = Annotated[
    TrainingRunCancelled | InputError | NotFoundError | ConflictError | AuthenticationError | PermissionError,
    strawberry.union("CancelTrainingRunResult"),
]


@mutation(
    description=(
        "Task owners: cancel a queued or running retraining. No new version is kept and the current target keeps "
        "serving. Cancelling again is harmless; a run that already ended is a ConflictError."
    )
)
async def cancel_training_run(info: Info, run_id: relay.GlobalID) -> CancelTrainingRunResult:
    run = await training.get_run(node_pk(run_id, "TrainingRun", "runId"))
    await authorize(info, permissions.cancel_training_run, run["task"])
    return TrainingRunCancelled(run=TrainingRunNode.from_row(await training.cancel_run(info.context.services, run)))
