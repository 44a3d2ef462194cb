"""Retraining the target model and opening the next round with it, in GraphQL: the query, mutation and
subscription fields."""

from __future__ import annotations

from collections.abc import AsyncGenerator

import strawberry
from strawberry import relay
from strawberry.types import Info

from server import permissions
from server.core import events
from server.graphql.core.guard import authorize
from server.graphql.core.relay import node_pk
from server.graphql.tasks.visibility import is_task_change, owned_task
from server.graphql.training.mutations.cancel_training_run import cancel_training_run
from server.graphql.training.mutations.open_next_round import open_next_round
from server.graphql.training.mutations.override_training_gate import override_training_gate
from server.graphql.training.mutations.train_target_model import train_target_model
from server.graphql.training.types import TrainingRunNode
from server.training import service as training


@strawberry.type
class TrainingMutations:
    train_target_model = train_target_model
    open_next_round = open_next_round
    cancel_training_run = cancel_training_run
    override_training_gate = override_training_gate


@strawberry.type
class TrainingQueries:
    @strawberry.field(description="Task owners: the task's training runs, newest first.")
    async def training_runs(self, info: Info, task_code: str, first: int = 20) -> list[TrainingRunNode]:
        task = await owned_task(info, task_code)
        viewer = await authorize(info, permissions.list_training_runs, task["id"])
        rows = await training.runs_of_task(task["id"], first)
        return [TrainingRunNode.from_row(r) for r in rows if permissions.can_view_training_run(viewer, r)]


@strawberry.type
class TrainingSubscriptions:
    @strawberry.subscription(description="A training run now, then again at every status or progress change.")
    async def training_run_updated(self, info: Info, run_id: relay.GlobalID) -> AsyncGenerator[TrainingRunNode, None]:
        pk = node_pk(run_id, "TrainingRun", "runId")
        row = await training.get_run(pk)
        await authorize(info, permissions.follow_training_run, row["task"])
        async with info.context.services.hub.listen(events.training_channel(pk), events.TASKS_CHANNEL) as changes:
            yield TrainingRunNode.from_row(await training.get_run(pk))
            async for event in changes:
                if event.get("kind") == events.TaskListChanged.kind:
                    if is_task_change(event, row["task"]):  # an owner removed: their feed ends (FORBIDDEN)
                        info.context.forget_viewer()
                        await authorize(info, permissions.follow_training_run, row["task"])
                    continue
                info.context.fresh_reads()
                yield TrainingRunNode.from_row(await training.get_run(pk))
