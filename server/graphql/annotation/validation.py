"""Validation in GraphQL: the validator's queue (query and live), votes, live example updates, the numbers."""

from __future__ import annotations

from collections.abc import AsyncGenerator
from enum import Enum
from typing import Annotated

import strawberry
from strawberry import relay
from strawberry.types import Info

from server.core import events

from server import permissions
from server.annotation import badges as badge_rules
from server.annotation import stats, validating
from server.annotation.tables import Example
from server.graphql.annotation.examples import ExampleNode
from server.graphql.core.errors import AuthenticationError, ConflictError, InputError, NotFoundError, PermissionError
from server.graphql.core.guard import as_result, authorize, authorize_principal
from server.graphql.core.relay import build_connection, check_page_size, decode_cursor, node_pk
from server.graphql.accounts.types import UserNode
from server.tasks.service import get_task_by_code

QUEUE_SNAPSHOT = 20
# The open examples of a round that the viewer may still vote on, by id (a keyset page), and the first
# ones of the live queue (fooling first). Each is served by a small partial index of open examples
# (examples_open_by_round, examples_open_queue; tests/scale checks the plans on a million examples).
_VOTABLE = (
    "SELECT * FROM examples e WHERE e.round = {} AND e.status = 'open' AND NOT e.retracted AND e.\"user\" <> {} "
    "AND NOT EXISTS (SELECT 1 FROM validations v WHERE v.example = e.id AND v.\"user\" = {}) "
)
EXAMPLES_TO_VALIDATE = _VOTABLE + "AND e.id > {} ORDER BY e.id LIMIT {}"
QUEUE_SNAPSHOT_SQL = _VOTABLE + "ORDER BY e.fooled DESC NULLS LAST, e.id LIMIT {}"


@strawberry.enum
class ValidationLabel(Enum):
    CORRECT = "correct"
    INCORRECT = "incorrect"
    FLAGGED = "flagged"


@strawberry.enum
class ValidationMode(Enum):
    USER = "user"
    OWNER = "owner"


@strawberry.type
class Validation:
    label: ValidationLabel
    mode: ValidationMode
    note: str


@strawberry.type
class ExampleValidated:
    validation: Validation
    example: ExampleNode


ValidateExampleResult = Annotated[
    ExampleValidated | InputError | NotFoundError | ConflictError | PermissionError | AuthenticationError,
    strawberry.union("ValidateExampleResult"),
]


@strawberry.type
class ValidationQueueUpdate:
    added: list[ExampleNode] = strawberry.field(description="Examples now available to this validator.")
    removed_ids: list[relay.GlobalID] = strawberry.field(description="Examples that left the queue (decided, or voted on).")
    reset: bool = strawberry.field(
        default=False,
        description="True when `added` is the whole queue (the first update, and after the server lost its event "
                    "stream for a moment): replace what you hold rather than merging.",
    )


@strawberry.type
class UserStatsRow:
    rank: int
    user: UserNode
    submitted: int
    fooled: int
    verified_fooled: int = strawberry.field(description="fooled − fooled-but-rejected")
    verified_mer: float | None = strawberry.field(description="verified fooled / submitted")
    validations_done: int


@strawberry.type
class Badge:
    name: str
    description: str


def _row(rank: int, s: stats.UserStats, user_row: dict) -> UserStatsRow:
    return UserStatsRow(
        rank=rank, user=UserNode.from_row(user_row), submitted=s.submitted, fooled=s.fooled,
        verified_fooled=s.verified_fooled, verified_mer=s.verified_mer, validations_done=s.validations_done,
    )


@strawberry.type
class ValidationQueries:
    @strawberry.field(description="Up to `first` examples for the viewer to validate now (handed out so that concurrent validators get different ones).")
    async def next_examples_to_validate(self, info: Info, round_id: relay.GlobalID, first: int = 5) -> list[ExampleNode]:
        viewer = await authorize(info, permissions.validate)
        first = check_page_size(first, 50)
        rows = await validating.next_examples_to_validate(viewer, node_pk(round_id, "Round", "roundId"), first)
        return [ExampleNode.from_row(row) for row in rows]

    @strawberry.field(description="Every example the viewer could validate in the round, as a connection (no hand-out).")
    async def examples_to_validate(self, info: Info, round_id: relay.GlobalID, first: int = 20, after: str | None = None) -> relay.Connection[ExampleNode]:
        viewer = await authorize(info, permissions.validate)
        first = check_page_size(first, info.context.services.settings.page_size_max)
        after_id = decode_cursor(after)
        pk = node_pk(round_id, "Round", "roundId")
        rows = await Example.raw(EXAMPLES_TO_VALIDATE, pk, viewer.user_id, viewer.user_id, after_id or 0, first + 1)
        return build_connection(rows, first, after_id, ExampleNode.from_row)

    @strawberry.field(description="Users of a task (or one round of it) ranked by verified fooled examples.")
    async def user_leaderboard(self, info: Info, task_code: str, round_number: int | None = None, first: int = 20) -> list[UserStatsRow]:
        await authorize_principal(info, permissions.read_public)
        first = check_page_size(first, info.context.services.settings.page_size_max)
        task = await get_task_by_code(task_code)
        ranked = await stats.leaderboard(task["id"], round_number, first)
        users = await info.context.loaders.user.load_many([s.user_id for s in ranked])
        return [_row(i + 1, s, u) for i, (s, u) in enumerate(zip(ranked, users))]

    @strawberry.field(description="The viewer's own numbers and badges for a task.")
    async def my_stats(self, info: Info, task_code: str, round_number: int | None = None) -> UserStatsRow | None:
        viewer = await authorize(info, permissions.read_own_account)
        task = await get_task_by_code(task_code)
        found = await stats.user_stats(task["id"], round_number, viewer.user_id)
        user_row = await info.context.loaders.user.load(viewer.user_id)
        return _row(0, found or stats.UserStats(viewer.user_id, viewer.username), user_row)

    @strawberry.field(description="Badges the viewer earned on a task.")
    async def my_badges(self, info: Info, task_code: str) -> list[Badge]:
        viewer = await authorize(info, permissions.read_own_account)
        task = await get_task_by_code(task_code)
        s = await stats.user_stats(task["id"], None, viewer.user_id) or stats.UserStats(viewer.user_id, viewer.username)
        days = await stats.active_days(task["id"], viewer.user_id)
        return [Badge(name=b.name, description=b.description) for b in badge_rules.badges(task["name"], s.submitted, s.validations_done, days)]


@strawberry.type
class ValidationMutations:
    @strawberry.mutation
    async def validate_example(
        self, info: Info, example_id: relay.GlobalID, label: ValidationLabel, mode: ValidationMode = ValidationMode.USER, note: str = ""
    ) -> ValidateExampleResult:
        async def run():
            viewer = await authorize(info, permissions.validate, mode == ValidationMode.OWNER)
            pk = node_pk(example_id, "Example", "exampleId")
            vote = await validating.validate_example(info.context.services, viewer, pk, label.value, mode.value, note)
            row = await Example.select().where(Example.id == pk).first().output(load_json=True)
            return ExampleValidated(
                validation=Validation(label=ValidationLabel(vote["label"]), mode=ValidationMode(vote["mode"]), note=vote["note"]),
                example=ExampleNode.from_row(row),
            )

        return await as_result(run)


@strawberry.type
class ValidationSubscriptions:
    @strawberry.subscription(description="Your example now, then again whenever it changes (e.g. gets validated).")
    async def example_updated(self, info: Info, example_id: relay.GlobalID) -> AsyncGenerator[ExampleNode, None]:
        viewer = await authorize(info, permissions.read_own_account)
        pk = node_pk(example_id, "Example", "exampleId")
        async with info.context.services.hub.listen(events.example_channel(pk)) as changes:
            row = await _visible_example(viewer, pk)
            yield ExampleNode.from_row(row)
            async for _ in changes:
                yield ExampleNode.from_row(await _visible_example(viewer, pk))

    @strawberry.subscription(description="The examples available to you to validate now, then additions and removals live.")
    async def examples_to_validate(self, info: Info, round_id: relay.GlobalID) -> AsyncGenerator[ValidationQueueUpdate, None]:
        viewer = await authorize(info, permissions.validate)
        pk = node_pk(round_id, "Round", "roundId")
        hub = info.context.services.hub

        async def snapshot() -> ValidationQueueUpdate:
            rows = await Example.raw(QUEUE_SNAPSHOT_SQL, pk, viewer.user_id, viewer.user_id, QUEUE_SNAPSHOT)
            return ValidationQueueUpdate(added=[ExampleNode.from_row(r) for r in rows], removed_ids=[], reset=True)

        async with hub.listen(events.queue_channel(pk)) as changes:
            yield await snapshot()
            async for event in changes:
                if event["kind"] == "resync":
                    yield await snapshot()
                    continue
                global_id = relay.GlobalID("Example", str(event["id"]))
                if event["kind"] == "available" and event["author"] != viewer.user_id:
                    row = await hub.shared(("example", event["id"], event.get("_sequence")), lambda: _example_row(event["id"]))
                    if row and row["status"] == "open":
                        yield ValidationQueueUpdate(added=[ExampleNode.from_row(row)], removed_ids=[])
                elif event["kind"] == "vote" and (not event["open"] or viewer.user_id in event["voter_ids"]):
                    yield ValidationQueueUpdate(added=[], removed_ids=[global_id])


async def _example_row(pk: int) -> dict | None:
    return await Example.select().where(Example.id == pk).first().output(load_json=True)


async def _visible_example(viewer, pk: int) -> dict:
    from server.core.errors import ServiceError, not_found
    from server.tasks.service import get_round

    row = await Example.select().where(Example.id == pk).first().output(load_json=True)
    if row is None:
        raise not_found("That example")
    round_row = await get_round(row["round"])
    if row["user"] != viewer.user_id and not permissions.is_task_owner(viewer, round_row["task"]):
        raise ServiceError("FORBIDDEN", "You can follow only your own examples.")
    return row
