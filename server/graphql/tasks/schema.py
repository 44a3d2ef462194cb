"""Tasks, rounds and contexts in GraphQL: the query, mutation and subscription fields."""

from __future__ import annotations

from collections.abc import AsyncGenerator

import strawberry
from strawberry import relay
from strawberry.types import Info

from server import permissions
from server.core import events
from server.graphql.core.guard import authorize_principal
from server.graphql.core.relay import build_connection, check_page_size, decode_cursor, node_pk
from server.graphql.tasks.mutations.add_contexts import add_contexts
from server.graphql.tasks.mutations.close_round import close_round
from server.graphql.tasks.mutations.create_round import create_round
from server.graphql.tasks.mutations.create_task import create_task
from server.graphql.tasks.mutations.export_round import export_round
from server.graphql.tasks.mutations.set_round_targets import set_round_targets
from server.graphql.tasks.types import RoundNode, TaskNode
from server.tasks import queries
from server.tasks import service as tasks


@strawberry.type
class TaskQueries:
    @strawberry.field(description="Active tasks, oldest first.")
    async def tasks(self, info: Info, first: int = 20, after: str | None = None) -> relay.Connection[TaskNode]:
        await authorize_principal(info, permissions.read_public)
        first = check_page_size(first, info.context.services.settings.page_size_max)
        after_id = decode_cursor(after)
        rows = await queries.active_tasks_page(after_id, first + 1)
        return build_connection(rows, first, after_id, TaskNode.from_row)

    @strawberry.field
    async def task(self, info: Info, code: str) -> TaskNode | None:
        await authorize_principal(info, permissions.read_public)
        row = await queries.task_by_code(code, decode_json=True)
        return TaskNode.from_row(row) if row else None


@strawberry.type
class TaskMutations:
    create_task = create_task
    create_round = create_round
    add_contexts = add_contexts
    close_round = close_round
    set_round_targets = set_round_targets
    export_round = export_round


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
