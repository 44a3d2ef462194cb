"""Researchers' models, datasets and the Dynaboard leaderboard in GraphQL."""

from __future__ import annotations

from collections.abc import AsyncGenerator
from datetime import datetime
from enum import Enum
from typing import Annotated

import strawberry
from strawberry import relay
from strawberry.file_uploads import Upload
from strawberry.scalars import JSON
from strawberry.types import Info

from server.core import events

from server import permissions
from server.core.errors import ServiceError
from server.evaluation import datasets_service, leaderboard, models_service
from server.evaluation.tables import Dataset, Model, Score
from server.graphql.core.errors import (
    AuthenticationError, ConflictError, Error, InputError, NotFoundError, PermissionError, RateLimitedError, ArchiveRejectedError,
)
from server.graphql.core.guard import as_result, authorize
from server.graphql.core.relay import check_page_size, decode_cursor, encode_cursor, node_pk
from server.graphql.tasks.types import TaskNode
from server.graphql.accounts.types import UserNode
from server.core.jsonutil import from_json as _json
from server.graphql.core.relay import parse_pk
from server.tasks.service import get_task_by_code


@strawberry.enum
class DatasetAccess(Enum):
    SCORING = "scoring"
    STANDARD = "standard"
    HIDDEN = "hidden"


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

    @classmethod
    def from_row(cls, row: dict) -> "DatasetNode":
        return cls(id=row["id"], name=row["name"], access=DatasetAccess(row["access"]), weight=row["weight"], created_at=row["created_at"])

    @strawberry.field
    async def example_count(self) -> int:
        rows = await Dataset.raw("SELECT count(*) AS n FROM dataset_examples WHERE dataset = {} AND perturbation = 'original'", self.id)
        return rows[0]["n"]

    @classmethod
    async def resolve_nodes(cls, *, info: Info, node_ids, required: bool = False):
        ids = [parse_pk(i) for i in node_ids]
        rows = {r["id"]: r for r in await Dataset.select().where(Dataset.id.is_in([i for i in ids if i] or [-1]))}
        return [cls.from_row(rows[i]) if i in rows else None for i in ids]


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
    status: str = strawberry.field(description="uploaded | deploying | deployed | evaluating | evaluated | failed")
    published: bool
    anonymous: bool
    created_at: datetime
    owner_id: strawberry.Private[int]
    task_id: strawberry.Private[int]
    log: strawberry.Private[list]

    @classmethod
    def from_row(cls, row: dict) -> "ModelNode":
        return cls(
            id=row["id"], name=row["name"], card=_json(row["card"]), status=row["status"], published=row["published"],
            anonymous=row["anonymous"], created_at=row["created_at"], owner_id=row["owner"], task_id=row["task"],
            log=_json(row["status_log"]),
        )

    @strawberry.field(description="Every status change with its message (Triton's own error text on failure). Owner only.")
    async def status_log(self, info: Info) -> list[StatusEntry] | None:
        viewer = await info.context.viewer()
        if viewer is None or (viewer.user_id != self.owner_id and not viewer.is_admin):
            return None
        return [StatusEntry(at=datetime.fromisoformat(e["at"]), status=e["status"], message=e["message"]) for e in self.log]

    @strawberry.field(description="Null when the model is anonymous (except to its owner).")
    async def owner(self, info: Info) -> UserNode | None:
        viewer = await info.context.viewer()
        if self.anonymous and (viewer is None or viewer.user_id != self.owner_id):
            return None
        return UserNode.from_row(await info.context.loaders.user.load(self.owner_id))

    @strawberry.field
    async def task(self, info: Info) -> TaskNode:
        return TaskNode.from_row(await info.context.loaders.task.load(self.task_id))

    @strawberry.field
    async def scores(self) -> list[ScoreRow]:
        rows = await Score.select().where(Score.model == self.id).order_by(Score.dataset).output(load_json=True)
        datasets = {d["id"]: d for d in await Dataset.select().where(Dataset.id.is_in([r["dataset"] for r in rows] or [-1]))}
        return [ScoreRow(dataset=DatasetNode.from_row(datasets[r["dataset"]]), perf=r["perf"], perf_by_tag=_json(r["perf_by_tag"]),
                         throughput=r["throughput"], memory_gb=r["memory_gb"], robustness=r["robustness"], fairness=r["fairness"])
                for r in rows]

    @classmethod
    async def resolve_nodes(cls, *, info: Info, node_ids, required: bool = False):
        viewer = await info.context.viewer()
        ids = [parse_pk(i) for i in node_ids]
        rows = await Model.select().where(Model.id.is_in([i for i in ids if i] or [-1])).output(load_json=True)
        visible = {r["id"]: cls.from_row(r) for r in rows if _can_see(viewer, r)}
        return [visible.get(i) for i in ids]


def _can_see(viewer, row: dict) -> bool:
    return row["published"] or (viewer is not None and (viewer.user_id == row["owner"] or viewer.is_admin))


@strawberry.input
class ModelCardInput:
    description: str | None = None
    parameters: str | None = None
    languages: str | None = None
    license: str | None = None
    source_url: str | None = None
    paper: str | None = None


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
    perf: float | None
    throughput: float | None
    memory: float | None
    robustness: float | None
    fairness: float | None


@strawberry.type
class LeaderboardRow:
    rank: int
    model: ModelNode
    dynascore: float
    metrics: MetricValues = strawberry.field(description="Dataset-weighted averages over the scoring datasets.")
    per_dataset: list[ScoreRow]


@strawberry.type
class LeaderboardPage:
    rows: list[LeaderboardRow]
    total_count: int
    has_next_page: bool
    end_cursor: str | None
    metric_weights: list[MetricWeight]
    dataset_weights: list[DatasetWeight]


@strawberry.type
class ModelUploaded:
    model: ModelNode


@strawberry.type
class ModelChanged:
    model: ModelNode


@strawberry.type
class DatasetCreated:
    dataset: DatasetNode
    example_count: int


@strawberry.type
class LeaderboardConfigSaved:
    name: str
    metric_weights: list[MetricWeight]


_Denials = AuthenticationError | PermissionError
UploadModelResult = Annotated[
    ModelUploaded | ArchiveRejectedError | InputError | RateLimitedError | NotFoundError | _Denials, strawberry.union("UploadModelResult")
]
PublishModelResult = Annotated[ModelChanged | InputError | NotFoundError | _Denials, strawberry.union("PublishModelResult")]
CreateDatasetResult = Annotated[DatasetCreated | InputError | ConflictError | NotFoundError | _Denials, strawberry.union("CreateDatasetResult")]
SaveLeaderboardConfigResult = Annotated[
    LeaderboardConfigSaved | InputError | ConflictError | NotFoundError | _Denials, strawberry.union("SaveLeaderboardConfigResult")
]


def _map_error(exc: ServiceError):
    if exc.code == "ARCHIVE_REJECTED":
        return ArchiveRejectedError(code=exc.code, message=exc.message)
    raise exc


async def _result(run):
    try:
        return await as_result(run)
    except ServiceError as exc:
        return _map_error(exc)


def _metric_weights(items: list[MetricWeightInput] | None) -> dict[str, float]:
    return {item.metric.value: item.weight for item in items or []}


def _dataset_weights(items: list[DatasetWeightInput] | None) -> dict[int, float]:
    return {node_pk(item.dataset_id, "Dataset", "datasetWeights.datasetId"): item.weight for item in items or []}


async def _score_rows(entry, datasets: dict[int, dict]) -> list[ScoreRow]:
    return [ScoreRow(dataset=DatasetNode.from_row(datasets[d["dataset_id"]]), perf=d["perf"], perf_by_tag={},
                     throughput=d["throughput"], memory_gb=d["memory"], robustness=d["robustness"], fairness=d["fairness"])
            for d in entry.per_dataset if d["dataset_id"] in datasets]


@strawberry.type
class EvaluationQueries:
    @strawberry.field(description="Models ranked by Dynascore with the given (or the task's default, or a saved) weights.")
    async def leaderboard(
        self, info: Info, task_code: str, metric_weights: list[MetricWeightInput] | None = None,
        dataset_weights: list[DatasetWeightInput] | None = None, config_name: str | None = None,
        first: int = 20, after: str | None = None,
    ) -> LeaderboardPage:
        viewer = await authorize(info, permissions.read_public)  # the viewer's admin flag and tasks decide visibility
        first = check_page_size(first, info.context.services.settings.page_size_max)
        offset = decode_cursor(after) or 0
        task = await get_task_by_code(task_code)
        m_weights, d_weights = {}, {}
        if config_name:
            saved = await leaderboard.get_config(task["id"], config_name)
            m_weights = saved["metric_weights"]
            d_weights = {int(k): v for k, v in saved["dataset_weights"].items()}
        m_weights.update(_metric_weights(metric_weights))
        d_weights.update(_dataset_weights(dataset_weights))
        board = await leaderboard.build(task, viewer, m_weights, d_weights)
        datasets = {d["id"]: d for d in board.datasets}
        page = board.entries[offset : offset + first]
        rows = [
            LeaderboardRow(rank=e.rank, model=ModelNode.from_row(e.model), dynascore=e.dynascore,
                           metrics=MetricValues(**{m: e.metrics.get(m) for m in ("perf", "throughput", "memory", "robustness", "fairness")}),
                           per_dataset=await _score_rows(e, datasets))
            for e in page
        ]
        end = offset + len(page)
        return LeaderboardPage(
            rows=rows, total_count=len(board.entries), has_next_page=end < len(board.entries),
            end_cursor=encode_cursor(end) if page else None,
            metric_weights=[MetricWeight(metric=Metric(m), weight=w) for m, w in board.metric_weights.items()],
            dataset_weights=[DatasetWeight(dataset=DatasetNode.from_row(datasets[d]), weight=w) for d, w in board.dataset_weights.items()],
        )

    @strawberry.field(description="The task's datasets (hidden ones only to its owners).")
    async def datasets(self, info: Info, task_code: str) -> list[DatasetNode]:
        viewer = await authorize(info, permissions.read_public)  # the viewer's admin flag and tasks decide visibility
        task = await get_task_by_code(task_code)
        rows = await Dataset.select().where(Dataset.task == task["id"]).order_by(Dataset.id)
        owner = permissions.is_task_owner(viewer, task["id"])
        return [DatasetNode.from_row(r) for r in rows if owner or r["access"] != "hidden"]

    @strawberry.field(description="The viewer's uploaded models, newest first.")
    async def my_models(self, info: Info, task_code: str | None = None) -> list[ModelNode]:
        viewer = await authorize(info, permissions.read_own_account)
        query = Model.select().where(Model.owner == viewer.user_id)
        if task_code:
            query = query.where(Model.task == (await get_task_by_code(task_code))["id"])
        return [ModelNode.from_row(r) for r in await query.order_by(Model.id, ascending=False).limit(200).output(load_json=True)]


@strawberry.type
class EvaluationMutations:
    @strawberry.mutation(description="Upload a Triton model repository (tar.gz or zip) as a multipart GraphQL request.")
    async def upload_model(
        self, info: Info, task_code: str, name: str, archive: Upload, card: ModelCardInput | None = None, anonymous: bool = False,
    ) -> UploadModelResult:
        async def run():
            viewer = await authorize(info, permissions.submit_models)
            card_values = {k: getattr(card, k) for k in models_service.CARD_FIELDS} if card else {}
            stream = getattr(archive, "file", archive)
            row = await models_service.upload_model(
                info.context.services.settings, viewer.user_id, task_code, name, card_values, anonymous, stream
            )
            await info.context.services.arq.enqueue_job("deploy_model", row["id"])
            return ModelUploaded(model=ModelNode.from_row(row))

        return await _result(run)

    @strawberry.mutation
    async def publish_model(self, info: Info, model_id: relay.GlobalID, published: bool = True) -> PublishModelResult:
        async def run():
            viewer = await authorize(info, permissions.submit_models)
            row = await models_service.set_published(node_pk(model_id, "Model", "modelId"), viewer.user_id, viewer.is_admin, published)
            return ModelChanged(model=ModelNode.from_row(row))

        return await _result(run)

    @strawberry.mutation(description="Task owners: upload a JSONL dataset; perturbed copies are generated; scoring datasets trigger evaluation.")
    async def create_dataset(
        self, info: Info, task_code: str, name: str, file: Upload, access: DatasetAccess = DatasetAccess.SCORING,
        weight: float = 1.0, round_number: int | None = None,
    ) -> CreateDatasetResult:
        async def run():
            task = await get_task_by_code(task_code)
            await authorize(info, permissions.manage_task, task["id"])
            stream = getattr(file, "file", file)
            dataset, count = await datasets_service.create_dataset(task, round_number, name, access.value, weight, stream)
            if access == DatasetAccess.SCORING:
                for model_id in await datasets_service.models_to_evaluate(task["id"]):
                    await info.context.services.arq.enqueue_job("evaluate_model", model_id)
            return DatasetCreated(dataset=DatasetNode.from_row(dataset), example_count=count)

        return await _result(run)

    @strawberry.mutation(description="Save metric and dataset weights under a name others can load (`leaderboard(configName:)`).")
    async def save_leaderboard_config(
        self, info: Info, task_code: str, name: str, metric_weights: list[MetricWeightInput],
        dataset_weights: list[DatasetWeightInput] | None = None,
    ) -> SaveLeaderboardConfigResult:
        async def run():
            viewer = await authorize(info, permissions.read_own_account)
            task = await get_task_by_code(task_code)
            saved = await leaderboard.save_config(task, viewer.user_id, name, _metric_weights(metric_weights), _dataset_weights(dataset_weights))
            weights = _json(saved["metric_weights"])
            return LeaderboardConfigSaved(name=saved["name"], metric_weights=[MetricWeight(metric=Metric(m), weight=w) for m, w in weights.items()])

        return await _result(run)


@strawberry.type
class EvaluationSubscriptions:
    @strawberry.subscription(description="Your model now, then again on every status change and evaluation step.")
    async def model_updated(self, info: Info, model_id: relay.GlobalID) -> AsyncGenerator[ModelNode, None]:
        viewer = await authorize(info, permissions.read_own_account)
        pk = node_pk(model_id, "Model", "modelId")

        async def current() -> ModelNode:
            row = await models_service.get_model(pk)
            if row["owner"] != viewer.user_id and not viewer.is_admin:
                raise ServiceError("FORBIDDEN", "You can follow only your own models.")
            return ModelNode.from_row(row)

        async with info.context.services.hub.listen(events.model_channel(pk)) as changes:
            yield await current()
            async for _ in changes:
                yield await current()
