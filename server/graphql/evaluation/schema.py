"""Researchers' models, datasets and the Dynaboard leaderboard in GraphQL: the query, mutation and subscription fields."""

from __future__ import annotations

from collections.abc import AsyncGenerator

import strawberry
from strawberry import relay
from strawberry.types import Info

from server import permissions
from server.core import events
from server.evaluation.datasets import service as datasets_service
from server.evaluation.leaderboard import service as leaderboard
from server.evaluation.models import service as models_service
from server.graphql.core.guard import authorize
from server.graphql.core.relay import check_page_size, decode_cursor, encode_cursor, node_pk
from server.graphql.evaluation.contract import ContractQueries
from server.graphql.evaluation.mutations.create_dataset import create_dataset
from server.graphql.evaluation.mutations.publish_model import publish_model
from server.graphql.evaluation.mutations.save_leaderboard_config import save_leaderboard_config
from server.graphql.evaluation.mutations.upload_model import upload_model
from server.graphql.evaluation.types import (
    DatasetNode,
    DatasetWeight,
    DatasetWeightInput,
    LeaderboardConnection,
    LeaderboardRow,
    Metric,
    MetricWeightInput,
    ModelNode,
    dataset_weights_of,
    metric_weight_list,
    metric_weights_of,
)
from server.graphql.tasks.visibility import visible_task


@strawberry.type
class EvaluationQueries(ContractQueries):
    @strawberry.field(
        description="Models ranked by Dynascore with the given (or the task's default, or a saved) weights. Readable without "
        "an account unless the task's config makes it private (`dynascore.leaderboard`): then FORBIDDEN but to its owners."
    )
    async def leaderboard(
        self,
        info: Info,
        task_code: str,
        metric_weights: list[MetricWeightInput] | None = None,
        dataset_weights: list[DatasetWeightInput] | None = None,
        config_name: str | None = None,
        first: int = 20,
        after: str | None = None,
        exact_dynaboard: bool = False,
    ) -> LeaderboardConnection:
        viewer = await authorize(info, permissions.read_public)  # the viewer's admin flag and tasks decide visibility
        first = check_page_size(first, info.context.services.settings.page_size_max)
        offset = decode_cursor(after) or 0
        task = await visible_task(info, task_code)
        m_weights, d_weights = await leaderboard.saved_weights(task["id"], config_name)
        m_weights.update(metric_weights_of(metric_weights))
        d_weights.update(dataset_weights_of(dataset_weights))
        board = await leaderboard.build(task, viewer, m_weights, d_weights, exact_dynaboard)
        datasets = {d["id"]: d for d in board.datasets}
        page = board.entries[offset : offset + first]
        # A row's cursor is its position: the next page starts after it (the ranking is recomputed per request).
        edges = [
            relay.Edge(cursor=encode_cursor(offset + i + 1), node=LeaderboardRow.from_entry(entry, datasets))
            for i, entry in enumerate(page)
        ]
        return LeaderboardConnection(
            edges=edges,
            page_info=relay.PageInfo(
                has_next_page=offset + len(page) < len(board.entries),
                has_previous_page=offset > 0,
                start_cursor=edges[0].cursor if edges else None,
                end_cursor=edges[-1].cursor if edges else None,
            ),
            total_count=len(board.entries),
            metric_weights=metric_weight_list(board.metric_weights),
            metrics_in_effect=[Metric(m) for m in board.priced],
            exact_dynaboard=exact_dynaboard,
            dataset_weights=[
                DatasetWeight(dataset=DatasetNode.from_row(datasets[d]), weight=w) for d, w in board.dataset_weights.items()
            ],
        )

    @strawberry.field(description="The task's datasets (hidden ones only to its owners).")
    async def datasets(self, info: Info, task_code: str) -> list[DatasetNode]:
        viewer = await authorize(info, permissions.read_public)  # the viewer's admin flag and tasks decide visibility
        task = await visible_task(info, task_code)
        return [
            DatasetNode.from_row(row)
            for row in await datasets_service.datasets_of_task(task["id"])
            if permissions.can_view_dataset(viewer, row)
        ]

    @strawberry.field(description="The viewer's uploaded models, newest first.")
    async def my_models(self, info: Info, task_code: str | None = None) -> list[ModelNode]:
        viewer = await authorize(info, permissions.read_own_account)
        return [ModelNode.from_row(row) for row in await models_service.models_of_owner(viewer, task_code)]


@strawberry.type
class EvaluationMutations:
    upload_model = upload_model
    publish_model = publish_model
    create_dataset = create_dataset
    save_leaderboard_config = save_leaderboard_config


@strawberry.type
class EvaluationSubscriptions:
    @strawberry.subscription(description="Your model now, then again on every status change and evaluation step.")
    async def model_updated(self, info: Info, model_id: relay.GlobalID) -> AsyncGenerator[ModelNode, None]:
        await authorize(info, permissions.read_own_account)
        pk = node_pk(model_id, "Model", "modelId")

        async def current() -> ModelNode:
            info.context.fresh_reads()  # e.g. the scores the evaluation just stored
            row = await models_service.get_model(pk)
            await authorize(info, permissions.follow_model, row)
            return ModelNode.from_row(row)

        async with info.context.services.hub.listen(events.model_channel(pk)) as changes:
            yield await current()
            async for _ in changes:
                yield await current()
