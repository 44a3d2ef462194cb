"""Tasks, rounds and contexts in GraphQL."""

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
from server.graphql.core.guard import as_result, authorize, authorize_principal
from server.graphql.core.relay import build_connection, check_page_size, decode_cursor, node_pk
from server.graphql.tasks.types import RoundNode, TaskNode
from server.annotation import export_service
from server.tasks import service as tasks
from server.tasks.tables import Task


@strawberry.input
class CreateTaskInput:
    code: str
    name: str
    config: JSON = strawberry.field(description="The task configuration document (see docs/task-config.md).")
    description: str = ""


@strawberry.input
class TargetModelInput:
    name: str
    version: str = ""


@strawberry.input
class CreateRoundInput:
    task_code: str
    target_models: list[TargetModelInput]


@strawberry.input
class ContextInput:
    fields: JSON
    tag: str | None = None


@strawberry.input
class AddContextsInput:
    round_id: relay.GlobalID
    contexts: list[ContextInput]


@strawberry.type
class TaskCreated:
    task: TaskNode


@strawberry.type
class RoundCreated:
    round: RoundNode


@strawberry.type
class ContextsAdded:
    count: int
    round: RoundNode


@strawberry.enum
class ExportFormat(Enum):
    JSONL = "jsonl"
    HF_DATASET = "hf_dataset"


@strawberry.type
class RoundClosed:
    round: RoundNode


@strawberry.type
class RoundExport:
    url: str = strawberry.field(description="GET this path (same origin) within 15 minutes; no other credentials needed.")
    format: ExportFormat
    expires_at: datetime


_Denials = AuthenticationError | PermissionError
CreateTaskResult = Annotated[TaskCreated | InputError | ConflictError | _Denials, strawberry.union("CreateTaskResult")]
CreateRoundResult = Annotated[RoundCreated | InputError | NotFoundError | _Denials, strawberry.union("CreateRoundResult")]
CloseRoundResult = Annotated[RoundClosed | InputError | NotFoundError | _Denials, strawberry.union("CloseRoundResult")]
ExportRoundResult = Annotated[RoundExport | InputError | NotFoundError | _Denials, strawberry.union("ExportRoundResult")]
AddContextsResult = Annotated[ContextsAdded | InputError | NotFoundError | _Denials, strawberry.union("AddContextsResult")]


@strawberry.type
class TaskQueries:
    @strawberry.field(description="Active tasks, oldest first.")
    async def tasks(self, info: Info, first: int = 20, after: str | None = None) -> relay.Connection[TaskNode]:
        await authorize_principal(info, permissions.read_public)
        first = check_page_size(first, info.context.services.settings.page_size_max)
        after_id = decode_cursor(after)
        query = Task.select().where(Task.active == True)  # noqa: E712 — Piccolo builds SQL from this
        if after_id is not None:
            query = query.where(Task.id > after_id)
        rows = await query.order_by(Task.id).limit(first + 1).output(load_json=True)
        return build_connection(rows, first, after_id, TaskNode.from_row)

    @strawberry.field
    async def task(self, info: Info, code: str) -> TaskNode | None:
        await authorize_principal(info, permissions.read_public)
        row = await Task.select().where(Task.code == code).first().output(load_json=True)
        return TaskNode.from_row(row) if row else None


@strawberry.type
class TaskMutations:
    @strawberry.mutation
    async def create_task(self, info: Info, input: CreateTaskInput) -> CreateTaskResult:
        async def run():
            viewer = await authorize(info, permissions.create_task)
            row = await tasks.create_task(viewer.user_id, input.code, input.name, input.description, input.config)
            info.context.forget_viewer()
            return TaskCreated(task=TaskNode.from_row(row))

        return await as_result(run)

    @strawberry.mutation
    async def create_round(self, info: Info, input: CreateRoundInput) -> CreateRoundResult:
        async def run():
            task = await tasks.get_task_by_code(input.task_code)
            await authorize(info, permissions.manage_task, task["id"])
            targets = [{"name": t.name, "version": t.version} for t in input.target_models]
            row = await tasks.create_round(task["code"], targets)
            await events.publish(info.context.services.redis, events.RoundCreated(round_id=row["id"]))
            return RoundCreated(round=RoundNode.from_row(row))

        return await as_result(run)

    @strawberry.mutation
    async def add_contexts(self, info: Info, input: AddContextsInput) -> AddContextsResult:
        async def run():
            round_row = await tasks.get_round(node_pk(input.round_id, "Round", "roundId"))
            await authorize(info, permissions.manage_task, round_row["task"])
            count = await tasks.add_contexts(round_row, [{"fields": c.fields, "tag": c.tag} for c in input.contexts])
            return ContextsAdded(count=count, round=RoundNode.from_row(round_row))

        return await as_result(run)

    @strawberry.mutation(description="Task owners: stop collecting examples in a round.")
    async def close_round(self, info: Info, round_id: relay.GlobalID) -> CloseRoundResult:
        async def run():
            round_row = await tasks.get_round(node_pk(round_id, "Round", "roundId"))
            await authorize(info, permissions.manage_task, round_row["task"])
            row = await tasks.close_round(round_row["id"])
            await events.publish(info.context.services.redis, events.RoundClosed(round_id=row["id"]))
            return RoundClosed(round=RoundNode.from_row(row))

        return await as_result(run)

    @strawberry.mutation(description=(
        "Task owners: a download link for every example of a round with its context, input, model output, "
        "validations, outcome and anonymised user ids (JSONL like the original platform's releases, or an "
        "HF-datasets directory as tar.gz)."))
    async def export_round(self, info: Info, round_id: relay.GlobalID, format: ExportFormat = ExportFormat.JSONL) -> ExportRoundResult:
        async def run():
            round_row = await tasks.get_round(node_pk(round_id, "Round", "roundId"))
            viewer = await authorize(info, permissions.manage_task, round_row["task"])
            token, expires = export_service.issue_link_token(
                round_row["id"], format.value, viewer.user_id, info.context.services.settings.jwt_secret)
            return RoundExport(url=f"/exports/{token}", format=format,
                               expires_at=datetime.fromtimestamp(expires, tz=timezone.utc))

        return await as_result(run)


@strawberry.type
class TaskSubscriptions:
    @strawberry.subscription(description="The round's counters now, then again whenever they change.")
    async def round_stats(self, info: Info, round_id: relay.GlobalID) -> AsyncGenerator[RoundNode, None]:
        await authorize_principal(info, permissions.read_public)
        pk = node_pk(round_id, "Round", "roundId")
        hub = info.context.services.hub
        async with hub.listen(events.round_channel(pk)) as changes:
            yield RoundNode.from_row(await tasks.get_round(pk))
            async for event in changes:
                # Every watcher of this round in this process is woken by the same event: one read.
                yield RoundNode.from_row(await hub.shared(("round", pk, event.get("_sequence")), lambda: tasks.get_round(pk)))
