"""The annotation domain's root fields: writing examples, validating them, their live updates and the numbers."""

from __future__ import annotations

from collections.abc import AsyncGenerator, Hashable
from typing import cast

import strawberry
from strawberry import relay
from strawberry.types import Info

from server import permissions
from server.annotation import badges as badge_rules
from server.annotation.examples import queries as example_queries
from server.annotation.examples import service as examples_service
from server.annotation.validation import queries as validation_queries
from server.annotation.validation import stats, voting
from server.core import events
from server.core.batched_reads import BatchedReads
from server.core.errors import ServiceError, not_found
from server.core.i18n import localize, tr
from server.graphql.annotation import quality
from server.graphql.annotation.live import MyExampleSubscriptions
from server.graphql.annotation.mutations import (
    answer_follow_up,
    claim_fooled,
    create_example,
    explain_example,
    flag_example,
    mark_gold,
    reinstate_validator,
    retract_example,
    submit_examples,
    suggest_examples,
    unmark_gold,
    upload_gold,
    validate_example,
)
from server.graphql.annotation.types import (
    Badge,
    ContextStrategy,
    ExampleNode,
    UserStatsRow,
    ValidationQueueUpdate,
    ValidationWaiting,
)
from server.graphql.annotation.validation_queue import WINDOW, ValidationQueueFeed
from server.graphql.core.guard import authorize, authorize_principal
from server.graphql.core.relay import PK_MAX, build_connection, check_page_size, decode_cursor, node_pk
from server.graphql.tasks.types import ContextNode
from server.graphql.tasks.visibility import check_round_visible, is_task_change, recheck_task_visible, visible_task
from server.tasks.contexts import next_context
from server.tasks.service import get_round

QUEUE_SNAPSHOT = WINDOW  # the live queue's first update (validation_queue.py)


@strawberry.type
class AnnotationQueries:
    @strawberry.field(description="A context of the round to write against; least-used first by default.")
    async def next_context(
        self, info: Info, round_id: relay.GlobalID, strategy: ContextStrategy = ContextStrategy.LEAST_USED
    ) -> ContextNode:
        await authorize_principal(info, permissions.read_public)
        pk = node_pk(round_id, "Round", "roundId")
        await check_round_visible(info, pk)  # a proposal's or hidden task's round: its owners only
        row = await next_context(pk, strategy.value)
        examples_service.remember_context(row)  # the viewer is about to write against it
        return ContextNode.from_row(row)

    @strawberry.field(description="The viewer's own examples, newest first.")
    async def my_examples(
        self, info: Info, round_id: relay.GlobalID | None = None, first: int = 20, after: str | None = None
    ) -> relay.Connection[ExampleNode]:
        viewer = await authorize_principal(info, permissions.read_own_account)
        first = check_page_size(first, info.context.services.settings.page_size_max)
        after_id = decode_cursor(after)
        below = after_id - 1 if after_id is not None else PK_MAX
        round_pk = None if round_id is None else node_pk(round_id, "Round", "roundId")
        rows = await example_queries.my_examples(viewer.user_id, round_pk, below, first + 1)
        return build_connection(rows, first, after_id, ExampleNode.from_row)


@strawberry.type
class AnnotationMutations:
    create_example = create_example.create_example
    submit_examples = submit_examples.submit_examples
    retract_example = retract_example.retract_example
    flag_example = flag_example.flag_example
    explain_example = explain_example.explain_example
    claim_fooled = claim_fooled.claim_fooled
    answer_follow_up = answer_follow_up.answer_follow_up
    suggest_examples = suggest_examples.suggest_examples


WAITING_CAP = 10_000


async def _waiting(round_id: int, user_id: int) -> ValidationWaiting:
    return _waiting_of(await voting.waiting_count(user_id, round_id, WAITING_CAP))


def _waiting_of(count: int) -> ValidationWaiting:
    return ValidationWaiting(count=count, capped=count >= WAITING_CAP)


async def _live_waiting(batches: BatchedReads, round_id: int, user_id: int) -> ValidationWaiting:
    """For the live queues: the counts of the validators of a round who are due at once, read together."""
    return _waiting_of(await batches.get(("waiting", round_id), user_id, _read_waiting))


async def _read_waiting(group: Hashable, user_ids: list[Hashable]) -> dict[Hashable, int]:
    _, round_id = cast(tuple[str, int], group)
    return dict(await voting.waiting_counts(round_id, cast(list[int], user_ids), WAITING_CAP))


@strawberry.type
class ValidationQueries:
    @strawberry.field(description="Task owners: refused near-duplicates and each validator's gold accuracy and pause state.")
    async def task_quality(self, info: Info, task_code: str) -> quality.TaskQuality:
        return await quality.task_quality(info, task_code)

    @strawberry.field(
        description="Up to `first` examples for the viewer to validate now (handed out so that concurrent validators get different ones)."
    )
    async def next_examples_to_validate(self, info: Info, round_id: relay.GlobalID, first: int = 5) -> list[ExampleNode]:
        viewer = await authorize(info, permissions.validate)
        first = check_page_size(first, 50)
        pk = node_pk(round_id, "Round", "roundId")
        await check_round_visible(info, pk)
        rows = await voting.next_examples_to_validate(viewer, pk, first)
        return [ExampleNode.from_row(row) for row in rows]

    @strawberry.field(description="Every example the viewer could validate in the round, as a connection (no hand-out).")
    async def examples_to_validate(
        self, info: Info, round_id: relay.GlobalID, first: int = 20, after: str | None = None
    ) -> relay.Connection[ExampleNode]:
        viewer = await authorize(info, permissions.validate)
        first = check_page_size(first, info.context.services.settings.page_size_max)
        after_id = decode_cursor(after)
        pk = node_pk(round_id, "Round", "roundId")
        await check_round_visible(info, pk)
        rows = await validation_queries.examples_to_validate(pk, viewer.user_id, after_id or 0, first + 1)
        return build_connection(rows, first, after_id, ExampleNode.from_row)

    @strawberry.field(
        description="How many examples of the round wait for the viewer's vote (not their own, not voted on yet), "
        f"counted up to {WAITING_CAP:,}."
    )
    async def validation_waiting(self, info: Info, round_id: relay.GlobalID) -> ValidationWaiting:
        viewer = await authorize(info, permissions.validate)
        pk = node_pk(round_id, "Round", "roundId")
        await check_round_visible(info, pk)
        return await _waiting(pk, viewer.user_id)

    @strawberry.field(description="Users of a task (or one round of it) ranked by verified fooled examples.")
    async def user_leaderboard(
        self, info: Info, task_code: str, round_number: int | None = None, first: int = 20
    ) -> list[UserStatsRow]:
        await authorize_principal(info, permissions.read_public)
        first = check_page_size(first, info.context.services.settings.page_size_max)
        task = await visible_task(info, task_code)
        ranked = await stats.leaderboard(task["id"], round_number, first)
        users = await info.context.loaders.user.load_many([s.user_id for s in ranked])
        return [UserStatsRow.from_stats(i + 1, s, u) for i, (s, u) in enumerate(zip(ranked, users))]

    @strawberry.field(description="The viewer's own numbers and badges for a task.")
    async def my_stats(self, info: Info, task_code: str, round_number: int | None = None) -> UserStatsRow | None:
        viewer = await authorize(info, permissions.read_own_account)
        task = await visible_task(info, task_code)
        found = await stats.user_stats(task["id"], round_number, viewer.user_id)
        user_row = await info.context.loaders.user.load(viewer.user_id)
        return UserStatsRow.from_stats(0, found or stats.UserStats(viewer.user_id, viewer.username), user_row)

    @strawberry.field(description="Badges the viewer earned on a task.")
    async def my_badges(self, info: Info, task_code: str) -> list[Badge]:
        viewer = await authorize(info, permissions.read_own_account)
        task = await visible_task(info, task_code)
        s = await stats.user_stats(task["id"], None, viewer.user_id) or stats.UserStats(viewer.user_id, viewer.username)
        days = await stats.active_days(task["id"], viewer.user_id)
        return [
            Badge(name=localize(b.name), description=localize(b.description))
            for b in badge_rules.badges(task["name"], s.submitted, s.validations_done, days)
        ]


@strawberry.type
class ValidationMutations:
    validate_example = validate_example.validate_example
    mark_gold = mark_gold.mark_gold
    unmark_gold = unmark_gold.unmark_gold
    upload_gold = upload_gold.upload_gold
    reinstate_validator = reinstate_validator.reinstate_validator


@strawberry.type
class ValidationSubscriptions(MyExampleSubscriptions):
    @strawberry.subscription(description="Your example now, then again whenever it changes (e.g. gets validated).")
    async def example_updated(self, info: Info, example_id: relay.GlobalID) -> AsyncGenerator[ExampleNode, None]:
        viewer = await authorize(info, permissions.read_own_account)
        pk = node_pk(example_id, "Example", "exampleId")
        async with info.context.services.hub.listen(events.example_channel(pk)) as changes:
            row = await _visible_example(viewer, pk)
            yield ExampleNode.from_row(row)
            async for _ in changes:
                info.context.fresh_reads()
                yield ExampleNode.from_row(await _visible_example(viewer, pk))

    @strawberry.subscription(description="The examples available to you to validate now, then additions and removals live.")
    async def examples_to_validate(self, info: Info, round_id: relay.GlobalID) -> AsyncGenerator[ValidationQueueUpdate, None]:
        viewer = await authorize(info, permissions.validate)
        pk = node_pk(round_id, "Round", "roundId")
        task = await check_round_visible(info, pk)
        services = info.context.services

        async def on_task_event(event: dict) -> None:
            if is_task_change(event, task["id"]):  # e.g. the task hidden from the viewer: the feed ends
                await recheck_task_visible(info, task["id"], tr("That round"))

        async with services.hub.listen(events.queue_channel(pk), events.TASKS_CHANNEL) as changes:
            feed = ValidationQueueFeed(
                services.hub,
                changes,
                pk,
                viewer.user_id,
                lambda: _live_waiting(services.batches, pk, viewer.user_id),
                interval=max(1.0, services.settings.live_counters_interval_s),
                on_task_event=on_task_event,
            )
            async for update in feed.updates():
                yield update


async def _visible_example(viewer, pk: int) -> dict:
    row = await validation_queries.example_by_id(pk)
    if row is None:
        raise not_found(tr("That example"))
    round_row = await get_round(row["round"])
    denied = permissions.follow_example(viewer, row, round_row["task"])
    if denied is not None:
        raise ServiceError(denied.code, denied.message)
    return row
