"""`myExampleUpdates`: the viewer's own examples as they change (judged, decided, flagged, retracted, explained),
from the author channel every service that changes an example publishes on (server/core/events.py)."""

from __future__ import annotations

from collections.abc import AsyncGenerator
from enum import Enum

import strawberry
from strawberry.types import Info

from server import permissions
from server.annotation.examples import queries as example_queries
from server.core import events
from server.graphql.annotation.types import ExampleNode
from server.graphql.core.guard import authorize


@strawberry.enum(description="What changed in one of the viewer's examples; LISTENING first, once the feed is live.")
class MyExampleChange(Enum):
    LISTENING = "listening"
    JUDGED = "judged"
    OUTCOME = "outcome"
    FLAGGED = "flagged"
    RETRACTED = "retracted"
    EXPLAINED = "explained"


@strawberry.type
class MyExampleUpdate:
    change: MyExampleChange
    example: ExampleNode | None = strawberry.field(description="The example as it is now; null for LISTENING.")


@strawberry.type
class MyExampleSubscriptions:
    @strawberry.subscription(
        description="LISTENING once live, then each of your own examples again whenever it changes "
        "(the model's verdict, the validators' outcome, a flag, a retraction, an explanation)."
    )
    async def my_example_updates(self, info: Info) -> AsyncGenerator[MyExampleUpdate, None]:
        viewer = await authorize(info, permissions.read_own_account)
        async with info.context.services.hub.listen(events.author_channel(viewer.user_id)) as changes:
            yield MyExampleUpdate(change=MyExampleChange.LISTENING, example=None)
            async for event in changes:
                row = await example_queries.example_by_id(int(event["id"]))
                if row is None or not permissions.in_author_feed(viewer, row):
                    continue
                try:
                    change = MyExampleChange(event.get("change"))
                except ValueError:
                    continue
                info.context.fresh_reads()
                yield MyExampleUpdate(change=change, example=ExampleNode.from_row(row))
