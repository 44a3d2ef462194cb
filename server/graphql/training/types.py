"""Node types of retraining: a training run with its status log and what its build trained on."""

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


@strawberry.type
class TrainedLabelCount:
    label: str
    count: int


@strawberry.type(description="What a run's build trained on, as the training code counted it (docs/design.md §4.8).")
class TrainingData:
    validated_examples: int = strawberry.field(
        description="Validated examples of the chosen rounds the new version was trained on (each drawn at least once)."
    )
    validated_available: int = strawberry.field(
        description="Validated examples of the chosen rounds the model can take (an input and a label it knows)."
    )
    validated_read: int = strawberry.field(description="Validated examples of the chosen rounds.")
    validated_by_label: list[TrainedLabelCount] = strawberry.field(description="Trained-on examples per label.")
    validated_digest: str = strawberry.field(
        description="SHA-256 (hex) of the trained-on examples' database ids, ascending, one decimal id per line; "
        "the version's metadata.json lists the ids."
    )
    validated_share: float = strawberry.field(
        description="Share of the training draws taken from validated examples: their natural share, at least 0.3 "
        "(for a handful of examples: at most 20 draws each)."
    )
    min_draws: int = strawberry.field(description="The fewest times a trained-on validated example was drawn.")
    seed_examples: int = strawberry.field(description="Seed rows in the training pool (after the per-label cap).")
    steps: int = strawberry.field(description="Training steps (iterations for the QA ranker) run.")

    @classmethod
    def from_doc(cls, doc: Mapping[str, Any]) -> TrainingData | None:
        if not doc:
            return None
        return cls(
            validated_examples=doc["validated"],
            validated_available=doc["available"],
            validated_read=doc["read"],
            validated_by_label=[TrainedLabelCount(label=k, count=v) for k, v in doc["by_label"].items()],
            validated_digest=doc["digest"],
            validated_share=doc["share"],
            min_draws=doc["min_draws"],
            seed_examples=doc["seed"],
            steps=doc["steps"],
        )


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
    n_validated: int = strawberry.field(
        description="Validated examples the new version was trained on, as the training code counted them (0 until built)."
    )
    metrics: JSON = strawberry.field(description="Held-out score of the build, and perf per scoring dataset.")
    training_data: TrainingData | None = strawberry.field(description="What the build trained on (null until built).")
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
            training_data=TrainingData.from_doc(from_json(row.get("trained_on")) or {}),
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
