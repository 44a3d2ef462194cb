"""Retraining the target model and opening the next round with it, in GraphQL."""

from __future__ import annotations

from collections.abc import AsyncGenerator
from datetime import datetime, timezone
from enum import Enum
from typing import Annotated

import strawberry
from strawberry import relay
from strawberry.scalars import JSON
from strawberry.types import Info

from server.core import events

from server import permissions
from server.graphql.core.errors import AuthenticationError, ConflictError, InputError, NotFoundError, PermissionError
from server.graphql.core.guard import as_result, authorize
from server.graphql.core.relay import node_pk
from server.graphql.tasks.types import RoundNode, TaskNode
from server.core.jsonutil import from_json as _json
from server.graphql.core.relay import parse_pk
from server.permissions import is_task_owner
from server.tasks.service import get_task_by_code
from server.training import service as training
from server.training.tables import TrainingRun


@strawberry.enum
class TrainingProfile(Enum):
    FAST = "fast"
    FULL = "full"


@strawberry.type
class TrainingLogEntry:
    at: datetime
    status: str
    message: str


@strawberry.type(name="TrainingRun")
class TrainingRunNode(relay.Node):
    id: relay.NodeID[int]
    status: str = strawberry.field(description="queued | training | evaluating | published | failed")
    progress: float = strawberry.field(description="0 to 1")
    from_rounds: list[int]
    base_model: str
    profile: str
    model_name: str
    model_version: str = strawberry.field(description="The Triton version this run built (empty until built).")
    n_validated: int = strawberry.field(description="Validated examples added to the seed data.")
    metrics: JSON = strawberry.field(description="Held-out score of the build, and perf per scoring dataset.")
    created_at: datetime
    task_id: strawberry.Private[int]
    log: strawberry.Private[list]

    @classmethod
    def from_row(cls, row: dict) -> "TrainingRunNode":
        return cls(
            id=row["id"], status=row["status"], progress=row["progress"], from_rounds=_json(row["from_rounds"]),
            base_model=row["base_model"], profile=row["profile"], model_name=row["model_name"],
            model_version=row["model_version"], n_validated=row["n_validated"], metrics=_json(row["metrics"]),
            created_at=row["created_at"], task_id=row["task"], log=_json(row["status_log"]),
        )

    @strawberry.field
    def status_log(self) -> list[TrainingLogEntry]:
        return [TrainingLogEntry(at=datetime.fromtimestamp(e["at"], tz=timezone.utc), status=e["status"], message=e["message"])
                for e in self.log]

    @strawberry.field
    async def task(self, info: Info) -> TaskNode:
        return TaskNode.from_row(await info.context.loaders.task.load(self.task_id))

    @classmethod
    async def resolve_nodes(cls, *, info: Info, node_ids, required: bool = False):
        viewer = await info.context.viewer()
        ids = [parse_pk(i) for i in node_ids]
        rows = await TrainingRun.select().where(TrainingRun.id.is_in([i for i in ids if i] or [-1])).output(load_json=True)
        visible = {r["id"]: cls.from_row(r) for r in rows if is_task_owner(viewer, r["task"])}
        return [visible.get(i) for i in ids]


@strawberry.type
class TrainingStarted:
    run: TrainingRunNode


@strawberry.type
class NextRoundOpened:
    round: RoundNode


_Denials = AuthenticationError | PermissionError
TrainTargetModelResult = Annotated[TrainingStarted | InputError | NotFoundError | ConflictError | _Denials,
                                   strawberry.union("TrainTargetModelResult")]
OpenNextRoundResult = Annotated[NextRoundOpened | InputError | NotFoundError | _Denials, strawberry.union("OpenNextRoundResult")]


async def _owned_task(info: Info, task_code: str):
    task = await get_task_by_code(task_code)
    viewer = await authorize(info, permissions.manage_task, task["id"])
    return task, viewer


@strawberry.type
class TrainingMutations:
    @strawberry.mutation(description=(
        "Task owners: build a new version of the task's target model from its seed data plus the validated "
        "examples of `fromRounds` (same recipe as the built-in models), load it into the target Triton and "
        "score it on the task's scoring datasets. Follow it with `trainingRunUpdated`."))
    async def train_target_model(self, info: Info, task_code: str, from_rounds: list[int], base_model: str = "",
                                 profile: TrainingProfile = TrainingProfile.FULL) -> TrainTargetModelResult:
        async def run():
            task, viewer = await _owned_task(info, task_code)
            row = await training.start_training(info.context.services, viewer.user_id, task, from_rounds, base_model, profile.value)
            return TrainingStarted(run=TrainingRunNode.from_row(row))

        return await as_result(run)

    @strawberry.mutation(description=(
        "Task owners: close the current round and open the next one, judged by `modelVersion` of the target "
        "model (a published training run's version), with the current round's contexts."))
    async def open_next_round(self, info: Info, task_code: str, model_version: str) -> OpenNextRoundResult:
        async def run():
            await _owned_task(info, task_code)
            row = await training.open_next_round(task_code, model_version)
            await events.publish(info.context.services.redis, events.RoundCreated(round_id=row["id"]))
            return NextRoundOpened(round=RoundNode.from_row(row))

        return await as_result(run)


@strawberry.type
class TrainingQueries:
    @strawberry.field(description="Task owners: the task's training runs, newest first.")
    async def training_runs(self, info: Info, task_code: str, first: int = 20) -> list[TrainingRunNode]:
        task, _ = await _owned_task(info, task_code)
        rows = await TrainingRun.select().where(TrainingRun.task == task["id"]).order_by(
            TrainingRun.id, ascending=False).limit(max(1, min(first, 100))).output(load_json=True)
        return [TrainingRunNode.from_row(r) for r in rows]


@strawberry.type
class TrainingSubscriptions:
    @strawberry.subscription(description="A training run now, then again at every status or progress change.")
    async def training_run_updated(self, info: Info, run_id: relay.GlobalID) -> AsyncGenerator[TrainingRunNode, None]:
        pk = node_pk(run_id, "TrainingRun", "runId")
        row = await training.get_run(pk)
        await authorize(info, permissions.manage_task, row["task"])  # the rule of `trainingRuns`
        async with info.context.services.hub.listen(events.training_channel(pk)) as changes:
            yield TrainingRunNode.from_row(await training.get_run(pk))
            async for _ in changes:
                yield TrainingRunNode.from_row(await training.get_run(pk))
