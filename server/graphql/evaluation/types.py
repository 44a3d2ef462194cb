"""Node and object types of researchers' models, datasets, scores and the leaderboard."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from enum import Enum
from typing import Any, cast

import strawberry
from strawberry import relay
from strawberry.scalars import JSON
from strawberry.types import Info

from server import permissions
from server.core.jsonutil import from_json
from server.evaluation import records
from server.evaluation.leaderboard.service import LeaderboardEntry
from server.evaluation.models.log_text import scrub
from server.evaluation.records import DatasetRow, ModelRow
from server.graphql.accounts.types import UserNode
from server.graphql.core.relay import load_nodes, node_pk
from server.graphql.evaluation.contamination import DatasetContamination, DatasetOverlap
from server.graphql.tasks.types import TaskNode
from server.graphql.tasks.visibility import visible_rows


@strawberry.enum
class DatasetAccess(Enum):
    SCORING = records.DatasetAccess.SCORING.value
    STANDARD = records.DatasetAccess.STANDARD.value
    HIDDEN = records.DatasetAccess.HIDDEN.value


@strawberry.enum
class Metric(Enum):
    PERF = "perf"
    THROUGHPUT = "throughput"
    MEMORY = "memory"
    ROBUSTNESS = "robustness"
    FAIRNESS = "fairness"


@strawberry.type
class StatusEntry:
    at: datetime
    status: str
    message: str


@strawberry.type(name="Dataset")
class DatasetNode(relay.Node):
    id: relay.NodeID[int]
    name: str
    access: DatasetAccess
    weight: float
    created_at: datetime
    task_id: strawberry.Private[int]

    @classmethod
    def from_row(cls, row: DatasetRow) -> DatasetNode:
        return cls(
            id=row["id"],
            name=row["name"],
            access=DatasetAccess(row["access"]),
            weight=row["weight"],
            created_at=row["created_at"],
            task_id=row["task"],
        )

    @strawberry.field(
        description="Exact and near-duplicate overlap of its rows with collected examples, training data and the other "
        "datasets (docs/design.md §4.9); null until the check queued when it was added has run."
    )
    async def contamination(self, info: Info) -> DatasetContamination | None:
        stored = await info.context.loaders.dataset_contamination.load(self.id)
        return DatasetContamination.from_stored(stored, self.task_id) if stored else None

    @strawberry.field
    async def example_count(self, info: Info) -> int:
        return await info.context.loaders.dataset_example_count.load(self.id)

    @classmethod
    async def resolve_nodes(cls, *, info: Info, node_ids: Iterable[str], required: bool = False):
        # The same rule as the `datasets` list: a hidden dataset is null to all but the task's owners and admins.
        viewer = await info.context.viewer()
        return await load_nodes(
            info.context.loaders.dataset,
            node_ids,
            lambda row: cls.from_row(row) if permissions.can_view_dataset(viewer, row) else None,
        )


@strawberry.type
class ScoreRow:
    dataset: DatasetNode
    perf: float
    perf_by_tag: JSON
    throughput: float | None
    memory_gb: float | None
    robustness: float | None
    fairness: float | None


@strawberry.type(name="Model")
class ModelNode(relay.Node):
    id: relay.NodeID[int]
    name: str
    card: JSON
    status: str = strawberry.field(
        description="uploaded | deploying | deployed | evaluating | evaluated | not_ranked | failed (not_ranked: evaluated "
        "while the task had no scoring dataset, so absent from the leaderboard until one is added)"
    )
    published: bool
    anonymous: bool
    created_at: datetime
    retrained_from_id: relay.GlobalID | None = strawberry.field(
        description="The model a retraining run built this one from with its own train.py (null for an upload)."
    )
    row: strawberry.Private[ModelRow]

    @classmethod
    def from_row(cls, row: ModelRow) -> ModelNode:
        return cls(
            id=row["id"],
            name=row["name"],
            card=from_json(row["card"]),
            status=row["status"],
            published=row["published"],
            anonymous=row["anonymous"],
            created_at=row["created_at"],
            retrained_from_id=relay.GlobalID("Model", str(row["retrained_from"])) if row.get("retrained_from") else None,
            row=row,
        )

    @strawberry.field(description="Why an admin took this model down (owner and admins only); null when it was not.")
    async def taken_down_reason(self, info: Info) -> str | None:
        if self.row.get("taken_down_at") is None or not permissions.can_view_model_log(await info.context.viewer(), self.row):
            return None
        return self.row["taken_down_reason"]

    @strawberry.field(description="When an admin took this model down (owner and admins only); null when it was not.")
    async def taken_down_at(self, info: Info) -> datetime | None:
        if not permissions.can_view_model_log(await info.context.viewer(), self.row):
            return None
        return self.row.get("taken_down_at")

    @strawberry.field(description="Every status change with its message (Triton's own error text on failure). Owner only.")
    async def status_log(self, info: Info) -> list[StatusEntry] | None:
        if not permissions.can_view_model_log(await info.context.viewer(), self.row):
            return None
        return [
            StatusEntry(
                at=datetime.fromisoformat(e["at"]),
                status=e["status"],
                message=scrub(e["message"], self.row.get("triton_name") or ""),
            )
            for e in from_json(self.row["status_log"])
        ]

    @strawberry.field(
        description='The numbers of the open rounds this submission judges ("in the loop for round N"); empty when none.'
    )
    async def in_the_loop(self, info: Info) -> list[int]:
        found = await info.context.loaders.rounds_judged_by.load(int(self.id))
        return list(found["rounds"]) if found else []

    @strawberry.field(description="Null when the model is anonymous (except to its owner).")
    async def owner(self, info: Info) -> UserNode | None:
        if not permissions.can_see_model_owner(await info.context.viewer(), self.row):
            return None
        return UserNode.from_row(await info.context.loaders.user.load(self.row["owner"]))

    @strawberry.field(description="The model's task; null when the viewer may not see it (as `node(id:)` answers).")
    async def task(self, info: Info) -> TaskNode | None:
        [task] = await visible_rows(info, [await info.context.loaders.task.load(self.row["task"])], task_of="id")
        return TaskNode.from_row(task) if task else None

    @strawberry.field
    async def scores(self, info: Info) -> list[ScoreRow]:
        rows = await info.context.loaders.model_scores.load(self.id)
        datasets = {d["id"]: d for d in await info.context.loaders.dataset.load_many([r["dataset"] for r in rows]) if d}
        return [
            ScoreRow(
                dataset=DatasetNode.from_row(datasets[r["dataset"]]),
                perf=r["perf"],
                perf_by_tag=from_json(r["perf_by_tag"]),
                throughput=r["throughput"],
                memory_gb=r["memory_gb"],
                robustness=r["robustness"],
                fairness=r["fairness"],
            )
            for r in rows
        ]

    @classmethod
    async def resolve_nodes(cls, *, info: Info, node_ids: Iterable[str], required: bool = False):
        # The same rule as lists and leaderboards: an unpublished model is null to all but its owner and admins.
        viewer = await info.context.viewer()
        return await load_nodes(
            info.context.loaders.model,
            node_ids,
            lambda row: cls.from_row(row) if permissions.can_view_model(viewer, row) else None,
        )


@strawberry.input
class MetricWeightInput:
    metric: Metric
    weight: float


@strawberry.input
class DatasetWeightInput:
    dataset_id: relay.GlobalID
    weight: float


@strawberry.type
class MetricWeight:
    metric: Metric
    weight: float


@strawberry.type
class DatasetWeight:
    dataset: DatasetNode
    weight: float


@strawberry.type
class MetricValues:
    perf: float | None = strawberry.field(description="The task's performance metric, 0–100 (accuracy, macro F1, SQuAD F1).")
    throughput: float | None = strawberry.field(description="Examples per second.")
    memory: float | None = strawberry.field(description="Peak memory in GB.")
    robustness: float | None = strawberry.field(description="Share (0–1) of perturbed copies answered as the original.")
    fairness: float | None = strawberry.field(description="Share (0–1) of demographic swaps answered as the original.")


@strawberry.type(description="What one metric adds to one model's Dynascore.")
class MetricContribution:
    metric: Metric
    points: float = strawberry.field(
        description="The metric's term w·x'/AMRS (resolved: counted from the worst ranked model, so 0 for the worst, "
        "and 0 for a metric whose differences are all below its measurement resolution)."
    )
    share: float | None = strawberry.field(
        description="points / dynascore (0–1): the metric's actual share of this model's score. Null when the score "
        "is not positive or a term is negative (possible only with exactDynaboard)."
    )

    @staticmethod
    def of(contributions: dict[str, float], dynascore: float) -> list[MetricContribution]:
        readable = dynascore > 0 and all(points >= 0 for points in contributions.values())
        return [
            MetricContribution(metric=Metric(m), points=points, share=points / dynascore if readable else None)
            for m, points in contributions.items()
            if m in Metric._value2member_map_
        ]


@strawberry.type
class LeaderboardRow:
    rank: int
    model: ModelNode
    dynascore: float
    metrics: MetricValues = strawberry.field(description="Dataset-weighted averages over the scoring datasets.")
    per_dataset: list[ScoreRow]
    contributions: list[MetricContribution] = strawberry.field(
        description="Each metric's part of the Dynascore (they sum to it), in the order of `Metric`."
    )

    @classmethod
    def from_entry(cls, entry: LeaderboardEntry, datasets: dict[int, DatasetRow]) -> LeaderboardRow:
        return cls(
            rank=entry.rank,
            model=ModelNode.from_row(entry.model),
            dynascore=entry.dynascore,
            contributions=MetricContribution.of(entry.details.contributions if entry.details else {}, entry.dynascore),
            metrics=MetricValues(**{m: entry.metrics.get(m) for m in ("perf", "throughput", "memory", "robustness", "fairness")}),
            per_dataset=[
                ScoreRow(
                    dataset=DatasetNode.from_row(datasets[d["dataset_id"]]),
                    perf=d["perf"],
                    perf_by_tag=cast(JSON, {}),
                    throughput=d["throughput"],
                    memory_gb=d["memory"],
                    robustness=d["robustness"],
                    fairness=d["fairness"],
                )
                for d in entry.per_dataset
                if d["dataset_id"] in datasets
            ],
        )


_OLD_SHAPE = "Since 2026-11-28 the leaderboard is a Relay connection: {use}. Removed after 2027-05-31 (docs/api.md)."


@strawberry.type(
    description="A page of the ranked models as a Relay connection (`edges { cursor node }`, `pageInfo`), with the "
    "weights it was ranked with and the total number of ranked models."
)
class LeaderboardConnection(relay.Connection[LeaderboardRow]):
    total_count: int
    metric_weights: list[MetricWeight]
    dataset_weights: list[DatasetWeight]
    exact_dynaboard: bool = strawberry.field(
        description="False (the default): resolved Dynascores, where differences below a metric's measurement "
        "resolution (throughput 10 %, memory 0.05 GB, robustness and fairness 0.01) are ties and every metric but "
        "performance counts from the worst ranked model. True: Dynaboard's exact numbers (docs/design.md §4)."
    )
    metrics_in_effect: list[Metric] = strawberry.field(
        description="The metrics whose weight can change scores now: PERF always; another only when at least two "
        "ranked models differ in performance and in it (Dynascore prices each metric by how it trades off against "
        "performance between models), so with one model only PERF counts."
    )

    @strawberry.field(
        description="Per scoring dataset: how many of its rows overlap any model's training data, and how many "
        "duplicate collected examples (docs/design.md §4.9)."
    )
    async def dataset_overlap(self, info: Info) -> list[DatasetOverlap]:
        datasets = [w.dataset for w in self.dataset_weights]
        stored = await info.context.loaders.dataset_contamination.load_many([d.id for d in datasets])
        return [DatasetOverlap.of(d.id, d.name, s) for d, s in zip(datasets, stored, strict=True)]

    @strawberry.field(deprecation_reason=_OLD_SHAPE.format(use="use `edges { node }`"))
    def rows(self) -> list[LeaderboardRow]:
        return [edge.node for edge in self.edges]

    @strawberry.field(deprecation_reason=_OLD_SHAPE.format(use="use `pageInfo { hasNextPage }`"))
    def has_next_page(self) -> bool:
        return self.page_info.has_next_page

    @strawberry.field(deprecation_reason=_OLD_SHAPE.format(use="use `pageInfo { endCursor }`"))
    def end_cursor(self) -> str | None:
        return self.page_info.end_cursor


def metric_weights_of(items: list[MetricWeightInput] | None) -> dict[str, float]:
    return {item.metric.value: item.weight for item in items or []}


def dataset_weights_of(items: list[DatasetWeightInput] | None) -> dict[int, float]:
    return {node_pk(item.dataset_id, "Dataset", "datasetWeights.datasetId"): item.weight for item in items or []}


def metric_weight_list(weights: dict[str, Any]) -> list[MetricWeight]:
    return [MetricWeight(metric=Metric(m), weight=w) for m, w in weights.items()]
