"""createDataset: a task owner uploads a JSONL dataset; a scoring one re-evaluates the task's live models."""

from __future__ import annotations

from typing import Annotated

import strawberry
from strawberry.file_uploads import Upload
from strawberry.types import Info

from server import permissions
from server.evaluation.datasets import service as datasets_service
from server.graphql.core.errors import (
    AuthenticationError,
    ConflictError,
    InputError,
    NotFoundError,
    PermissionError,
    mutation,
)
from server.graphql.core.guard import authorize
from server.graphql.evaluation.types import DatasetAccess, DatasetNode
from server.graphql.tasks.visibility import owned_task


@strawberry.type
class DatasetCreated:
    dataset: DatasetNode
    example_count: int


CreateDatasetResult = Annotated[
    DatasetCreated | InputError | ConflictError | NotFoundError | AuthenticationError | PermissionError,
    strawberry.union("CreateDatasetResult"),
]


@mutation(description="Task owners: upload a JSONL dataset; perturbed copies are generated; scoring datasets trigger evaluation.")
async def create_dataset(
    info: Info,
    task_code: str,
    name: str,
    file: Upload,
    access: DatasetAccess = DatasetAccess.SCORING,
    weight: float = 1.0,
    round_number: int | None = None,
) -> CreateDatasetResult:
    task = await owned_task(info, task_code)
    await authorize(info, permissions.manage_task, task["id"])
    stream = getattr(file, "file", file)
    dataset, count = await datasets_service.create_dataset(
        info.context.services, task, round_number, name, access.value, weight, stream
    )
    return DatasetCreated(dataset=DatasetNode.from_row(dataset), example_count=count)
