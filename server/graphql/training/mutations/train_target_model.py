"""trainTargetModel: task owners build a new version of the target model from validated examples."""

from __future__ import annotations

from typing import Annotated

import strawberry
from strawberry.types import Info

from server import permissions
from server.graphql.core.errors import (
    AuthenticationError,
    ConflictError,
    InputError,
    NotFoundError,
    PermissionError,
    mutation,
)
from server.graphql.core.guard import authorize
from server.graphql.tasks.visibility import owned_task
from server.graphql.training.types import TrainingProfile, TrainingRunNode
from server.training import gate
from server.training import service as training


@strawberry.type
class TrainingStarted:
    run: TrainingRunNode


TrainTargetModelResult = Annotated[
    TrainingStarted | InputError | NotFoundError | ConflictError | AuthenticationError | PermissionError,
    strawberry.union("TrainTargetModelResult"),
]


@mutation(
    description=(
        "Task owners: build a new version of the task's target model from its seed data plus the validated "
        "examples of `fromRounds` (same recipe as the built-in models), load it into the target Triton and "
        "judge it against the current target (the retraining gate: lower error on the chosen rounds' held-out "
        "validated examples with 95% confidence, and no scoring dataset's error worse by more than "
        "`scoringTolerance`, at least `minHeldOut` held-out examples). It ends published (offered to "
        "`openNextRound`) or rejected. Follow it with `trainingRunUpdated`. With `includeAgreed` (the default) "
        "the examples that did not fool the target and that the task does not send to validators count as "
        "validated with their writer's label, which the target agreed with: without them a task that validates "
        "only fooling examples trains on, and judges with, nothing but the examples the current version got "
        "wrong (docs/design.md §4.8). When the target is an uploaded classifier whose archive has a `train.py`, that "
        "script is the recipe: it runs in the sandbox on the same examples and builds a new model of the same owner "
        "(`newModelId`), deployed and evaluated like an upload and judged by the same gate in the submissions Triton "
        "(docs/design.md §4.8b)."
    )
)
async def train_target_model(
    info: Info,
    task_code: str,
    from_rounds: list[int],
    base_model: str = "",
    profile: TrainingProfile = TrainingProfile.FULL,
    scoring_tolerance: float = gate.DEFAULT_SCORING_TOLERANCE,
    min_held_out: int = gate.DEFAULT_MIN_HELD_OUT,
    include_agreed: bool = True,
) -> TrainTargetModelResult:
    task = await owned_task(info, task_code)
    viewer = await authorize(info, permissions.start_training, task["id"])
    row = await training.start_training(
        info.context.services,
        viewer,
        task,
        from_rounds,
        base_model,
        profile.value,
        scoring_tolerance,
        min_held_out,
        include_agreed,
    )
    return TrainingStarted(run=TrainingRunNode.from_row(row))
