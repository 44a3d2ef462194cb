"""Owners look through what a round collected (issue #18): `roundExamples` (filters, full-text search, a keyset
connection), `flaggedExamples` (the task's flag queue), `exampleReview` (votes with their voters, gold answer, the
owners' actions) and the `actOnExamples` mutation (mutations/act_on_examples.py)."""

from __future__ import annotations

from datetime import datetime

import strawberry
from strawberry import relay
from strawberry.scalars import JSON
from strawberry.types import Info

from server.annotation.browse import service
from server.annotation.browse.filters import ExampleFilter
from server.annotation.records import ExampleStatus, ValidationLabel, ValidationMode
from server.core.jsonutil import from_json
from server.graphql.annotation.mutations import act_on_examples
from server.graphql.annotation.types import ExampleNode
from server.graphql.core.relay import PK_MAX, build_connection, check_page_size, decode_cursor, node_pk
from server.graphql.tasks.visibility import owned_task

strawberry.enum(ExampleStatus, description="Where an example stands (see Example.status).")


@strawberry.input(description="Every field narrows the list; none given: the whole round.")
class ExampleFilterInput:
    statuses: list[ExampleStatus] | None = None
    fooled: bool | None = None
    flagged: bool | None = strawberry.field(
        default=None, description="Flagged by its author, or sent to the owners by validators' flags."
    )
    retracted: bool | None = None
    author: str | None = strawberry.field(default=None, description="A username.")
    context_id: relay.GlobalID | None = None
    created_after: datetime | None = None
    created_before: datetime | None = None
    text: str | None = strawberry.field(
        default=None,
        description='Words to find in the annotator\'s fields (full-text search, no stemming; "quoted phrase", '
        "or, -word as on web search engines).",
    )

    def parse(self) -> ExampleFilter:
        return ExampleFilter(
            statuses=tuple(self.statuses or ()),
            fooled=self.fooled,
            flagged=self.flagged,
            retracted=self.retracted,
            author=self.author,
            context_id=None if self.context_id is None else node_pk(self.context_id, "Context", "filter.contextId"),
            created_after=self.created_after,
            created_before=self.created_before,
            text=self.text,
        )


@strawberry.type
class ExampleVote:
    username: str
    label: ValidationLabel
    mode: ValidationMode
    note: str
    created_at: datetime
    fields: JSON = strawberry.field(
        default_factory=dict, description="The task's validator fields answered with the vote (ratings, categories...)."
    )


@strawberry.type(description="Something an owner did to the example (owner votes, resolved flags, retraction).")
class ExampleEvent:
    action: str = strawberry.field(
        description="validate_correct | validate_incorrect | validate_flagged | resolve_flag | retract"
    )
    username: str | None = strawberry.field(description="Who did it (null: the account is gone).")
    note: str
    created_at: datetime


@strawberry.type
class ExampleReview:
    example: ExampleNode
    votes: list[ExampleVote]
    history: list[ExampleEvent]
    gold_answer: ValidationLabel | None = strawberry.field(description="Its right answer, when it is a gold item.")

    @classmethod
    def of(cls, found: service.Review) -> ExampleReview:
        return cls(
            example=ExampleNode.from_row(found.example),
            votes=[
                ExampleVote(
                    username=v["username"],
                    label=ValidationLabel(v["label"]),
                    mode=ValidationMode(v["mode"]),
                    note=v["note"],
                    created_at=v["created_at"],
                    fields=from_json(v["fields"]) or {},
                )
                for v in found.votes
            ],
            history=[
                ExampleEvent(action=e["action"], username=e["username"], note=e["note"], created_at=e["created_at"])
                for e in found.history
            ],
            gold_answer=ValidationLabel(found.gold_answer) if found.gold_answer else None,
        )


@strawberry.type
class BrowseQueries:
    @strawberry.field(description="Task owners: the round's examples matching the filter, newest first.")
    async def round_examples(
        self,
        info: Info,
        round_id: relay.GlobalID,
        filter: ExampleFilterInput | None = None,
        first: int = 20,
        after: str | None = None,
    ) -> relay.Connection[ExampleNode]:
        first = check_page_size(first, info.context.services.settings.page_size_max)
        after_id = decode_cursor(after)
        below = after_id - 1 if after_id is not None else PK_MAX
        chosen = filter.parse() if filter is not None else ExampleFilter()
        viewer = await info.context.viewer()
        rows = await service.round_examples(viewer, node_pk(round_id, "Round", "roundId"), chosen, below, first + 1)
        return build_connection(rows, first, after_id, ExampleNode.from_row)

    @strawberry.field(description="Task owners: the task's flagged examples still in the data, newest first.")
    async def flagged_examples(
        self, info: Info, task_code: str, first: int = 20, after: str | None = None
    ) -> relay.Connection[ExampleNode]:
        first = check_page_size(first, info.context.services.settings.page_size_max)
        after_id = decode_cursor(after)
        below = after_id - 1 if after_id is not None else PK_MAX
        task = await owned_task(info, task_code)
        rows = await service.flagged_examples(await info.context.viewer(), task["id"], below, first + 1)
        return build_connection(rows, first, after_id, ExampleNode.from_row)

    @strawberry.field(description="Task owners: one example with its votes (and voters), gold answer and history.")
    async def example_review(self, info: Info, example_id: relay.GlobalID) -> ExampleReview:
        found = await service.review(await info.context.viewer(), node_pk(example_id, "Example", "exampleId"))
        return ExampleReview.of(found)


@strawberry.type
class BrowseMutations:
    act_on_examples = act_on_examples.act_on_examples
