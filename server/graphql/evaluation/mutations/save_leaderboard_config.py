"""saveLeaderboardConfig: share a weighting of a task's leaderboard under a name (`leaderboard(configName:)`)."""

from __future__ import annotations

from typing import Annotated

import strawberry
from strawberry.types import Info

from server import permissions
from server.core.jsonutil import from_json
from server.evaluation.leaderboard import service as leaderboard
from server.graphql.core.errors import (
    AuthenticationError,
    ConflictError,
    InputError,
    NotFoundError,
    PermissionError,
    mutation,
)
from server.graphql.core.guard import authorize
from server.graphql.evaluation.types import (
    DatasetWeightInput,
    MetricWeight,
    MetricWeightInput,
    dataset_weights_of,
    metric_weight_list,
    metric_weights_of,
)
from server.graphql.tasks.visibility import visible_task


@strawberry.type
class LeaderboardConfigSaved:
    name: str
    metric_weights: list[MetricWeight]


SaveLeaderboardConfigResult = Annotated[
    LeaderboardConfigSaved | InputError | ConflictError | NotFoundError | AuthenticationError | PermissionError,
    strawberry.union("SaveLeaderboardConfigResult"),
]


@mutation(description="Save metric and dataset weights under a name others can load (`leaderboard(configName:)`).")
async def save_leaderboard_config(
    info: Info,
    task_code: str,
    name: str,
    metric_weights: list[MetricWeightInput],
    dataset_weights: list[DatasetWeightInput] | None = None,
) -> SaveLeaderboardConfigResult:
    viewer = await authorize(info, permissions.read_own_account)
    task = await visible_task(info, task_code)
    saved = await leaderboard.save_config(
        task, viewer.user_id, name, metric_weights_of(metric_weights), dataset_weights_of(dataset_weights)
    )
    return LeaderboardConfigSaved(name=saved["name"], metric_weights=metric_weight_list(from_json(saved["metric_weights"])))
