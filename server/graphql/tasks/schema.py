"""Tasks, rounds and contexts in GraphQL: the query, mutation and subscription fields."""

from __future__ import annotations

from collections.abc import AsyncGenerator

import strawberry
from strawberry import relay
from strawberry.types import Info

from server import permissions
from server.core import events
from server.core.i18n import tr
from server.graphql.core.guard import authorize_principal
from server.graphql.core.relay import build_connection, check_page_size, decode_cursor, node_pk
from server.graphql.core.shared_events import shared
from server.graphql.tasks.live import TaskListSubscriptions
from server.graphql.tasks.mutations.add_contexts import add_contexts
from server.graphql.tasks.mutations.add_task_owner import add_task_owner
from server.graphql.tasks.mutations.close_round import close_round
from server.graphql.tasks.mutations.create_round import create_round
from server.graphql.tasks.mutations.create_task import create_task
from server.graphql.tasks.mutations.export_round import export_round
from server.graphql.tasks.mutations.remove_task_owner import remove_task_owner
from server.graphql.tasks.mutations.review_task import approve_task, reject_task
from server.graphql.tasks.mutations.set_round_targets import set_round_targets
from server.graphql.tasks.mutations.set_task_visibility import set_task_visibility
from server.graphql.tasks.mutations.update_task import update_task
from server.graphql.tasks.types import RoundNode, TaskNode
from server.graphql.tasks.visibility import check_round_visible, is_task_change, recheck_task_visible, visible_task_ids
from server.tasks import queries
from server.tasks import service as tasks


@strawberry.type
class TaskQueries:
    @strawberry.field(
        description="Active tasks, oldest first: public and archived ones, plus the viewer's own in any state "
        "(proposals, hidden); admins see every task."
    )
    async def tasks(self, info: Info, first: int = 20, after: str | None = None) -> relay.Connection[TaskNode]:
        principal = await authorize_principal(info, permissions.read_public)
        first = check_page_size(first, info.context.services.settings.page_size_max)
        after_id = decode_cursor(after)
        scope = permissions.task_list_scope(await info.context.viewer() if principal is not None else None)
        rows = await queries.listed_tasks_page(
            after_id, first + 1, everything=scope.everything, statuses=scope.statuses, owned=scope.owned
        )
        return build_connection(rows, first, after_id, TaskNode.from_row)

    @strawberry.field(description="A task by code; null when there is none or the viewer may not see it.")
    async def task(self, info: Info, code: str) -> TaskNode | None:
        await authorize_principal(info, permissions.read_public)
        row = await queries.task_by_code(code, decode_json=True)
        if row is None or not await visible_task_ids(info, [row]):
            return None
        return TaskNode.from_row(row)


@strawberry.type
class TaskMutations:
    create_task = create_task
    create_round = create_round
    add_contexts = add_contexts
    close_round = close_round
    set_round_targets = set_round_targets
    export_round = export_round
    update_task = update_task
    add_task_owner = add_task_owner
    remove_task_owner = remove_task_owner
    approve_task = approve_task
    reject_task = reject_task
    set_task_visibility = set_task_visibility


async def _round_node(pk: int) -> RoundNode:
    return shared(RoundNode.from_row(await tasks.get_round(pk)))  # the same object to every watcher in the process


@strawberry.type
class TaskSubscriptions(TaskListSubscriptions):
    @strawberry.subscription(description="The round's counters now, then again whenever they change.")
    async def round_stats(self, info: Info, round_id: relay.GlobalID) -> AsyncGenerator[RoundNode, None]:
        await authorize_principal(info, permissions.read_public)
        pk = node_pk(round_id, "Round", "roundId")
        task = await check_round_visible(info, pk)
        services = info.context.services
        # Every watcher of this round in this process shares one feed: one read per burst of changes, merged over
        # live_counters_interval_s (server/core/live_feed.py), and one RoundNode per read, so that watchers with the
        # same selection share its execution and JSON too (server/graphql/core/shared_events.py).
        async with services.feeds.watch(
            ("round", pk),
            (events.round_channel(pk), events.TASKS_CHANNEL),
            lambda: _round_node(pk),
            interval=services.settings.live_counters_interval_s,
            passthrough=frozenset({events.TaskListChanged.kind}),
        ) as (node, changes):
            yield node
            async for kind, payload in changes:
                if kind == "value":
                    yield payload
                # e.g. the viewer's ownership removed: the feed ends (a resync: such news may have been missed)
                elif payload.get("kind") == "resync" or is_task_change(payload, task["id"]):
                    await recheck_task_visible(info, task["id"], tr("That round"))
