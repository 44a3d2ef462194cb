"""Node types of retraining: a training run with its status log."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from enum import Enum
from typing import Any

import strawberry
from strawberry import relay
from strawberry.scalars import JSON
from strawberry.types import Info

from server import permissions
from server.core.jsonutil import from_json
from server.graphql.core.relay import int_ids
from server.graphql.tasks.types import TaskNode
from server.training import records


@strawberry.enum
class TrainingProfile(Enum):
    FAST = records.TrainingProfile.FAST.value
    FULL = records.TrainingProfile.FULL.value


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
    def from_row(cls, row: Mapping[str, Any]) -> TrainingRunNode:
        return cls(
            id=row["id"],
            status=row["status"],
            progress=row["progress"],
            from_rounds=from_json(row["from_rounds"]),
            base_model=row["base_model"],
            profile=row["profile"],
            model_name=row["model_name"],
            model_version=row["model_version"],
            n_validated=row["n_validated"],
            metrics=from_json(row["metrics"]),
            created_at=row["created_at"],
            task_id=row["task"],
            log=from_json(row["status_log"]),
        )

    @strawberry.field
    def status_log(self) -> list[TrainingLogEntry]:
        return [
            TrainingLogEntry(at=datetime.fromtimestamp(e["at"], tz=UTC), status=e["status"], message=e["message"])
            for e in self.log
        ]

    @strawberry.field
    async def task(self, info: Info) -> TaskNode:
        return TaskNode.from_row(await info.context.loaders.task.load(self.task_id))

    @classmethod
    async def resolve_nodes(cls, *, info: Info, node_ids, required: bool = False):
        viewer = await info.context.viewer()
        ids = int_ids(node_ids)
        rows = await info.context.loaders.training_run.load_many([i for i in ids if i is not None])
        visible = {r["id"]: cls.from_row(r) for r in rows if r and permissions.can_view_training_run(viewer, r)}
        return [visible.get(i) for i in ids]
