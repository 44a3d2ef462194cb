"""The `examplesToValidate` feed of one validator: the queue they hold, kept live, in proportion to what they see.

A validator's page shows a few examples at a time. Sending every new example of a busy round to every validator made
the queue's messages grow with validators × examples (each one an example's whole payload, serialized per validator).
So a feed keeps at most `WINDOW` examples in the validator's hands: new examples beyond it are not sent; their number
reaches the validator as the absolute `waiting` count, at most once per `interval` while it changes (on the interval's
grid, so that the counts due together are read together: server/core/batched_reads.py); when votes and
decisions empty the window below half, it is filled again from the database. Removals (an id each) go to the
validators who may show the example: who hold it here, who voted on it, and who were handed it by
nextExamplesToValidate (its claim holders, named by the event). Every listener woken by one event in this process
shares one read of it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from strawberry import relay

from server.annotation.records import ExampleStatus
from server.annotation.validation import queries as validation_queries
from server.core.batched_reads import next_tick
from server.core.event_hub import EventHub, HubListener
from server.graphql.annotation.types import ExampleNode, ValidationQueueUpdate, ValidationWaiting

WINDOW = 20  # the examples a validator holds at most (the first update's size, as before)


class ValidationQueueFeed:
    def __init__(
        self,
        hub: EventHub,
        changes: HubListener,
        round_id: int,
        viewer_id: int,
        waiting: Callable[[], Awaitable[ValidationWaiting]],
        interval: float,
        on_task_event: Callable[[dict[str, Any]], Awaitable[None]],
    ):
        self._hub = hub
        self._changes = changes
        self._round_id = round_id
        self._viewer_id = viewer_id
        self._waiting = waiting
        self._interval = interval
        self._on_task_event = on_task_event
        self._held: set[int] = set()
        self._withheld = False  # examples exist beyond the window that the validator was not sent
        self._count_stale = False  # the waiting count changed in ways the validator was not told of
        self._count_sent_at = -float("inf")

    async def snapshot(self) -> ValidationQueueUpdate:
        rows = await validation_queries.queue_snapshot(self._round_id, self._viewer_id, WINDOW)
        self._held = {row["id"] for row in rows}
        waiting = await self._waiting()
        self._withheld = waiting.capped or waiting.count > len(rows)
        self._count_stale = False
        self._count_sent_at = time.monotonic()
        return ValidationQueueUpdate(added=[ExampleNode.from_row(r) for r in rows], removed_ids=[], reset=True, waiting=waiting)

    async def updates(self) -> AsyncIterator[ValidationQueueUpdate]:
        yield await self.snapshot()
        while True:
            event = await self._next_event()
            if event is None:  # the count changed and the interval passed with no other news
                yield await self._count_update()
                continue
            update = await self._apply(event)
            if update is not None:
                yield update

    async def _next_event(self) -> dict[str, Any] | None:
        """The next event; None when the waiting count is stale and its interval passed first."""
        if not self._count_stale:
            return await anext(self._changes)
        # On the interval's grid: the feeds of this process due in the same tick read their counts together.
        wait = next_tick(self._count_sent_at + self._interval, self._interval) - time.monotonic()
        if wait <= 0:
            return None
        try:
            return await asyncio.wait_for(anext(self._changes), wait)
        except TimeoutError:
            return None

    async def _count_update(self) -> ValidationQueueUpdate:
        self._count_stale = False
        self._count_sent_at = time.monotonic()
        return ValidationQueueUpdate(added=[], removed_ids=[], waiting=await self._waiting())

    async def _apply(self, event: dict[str, Any]) -> ValidationQueueUpdate | None:
        kind = event.get("kind")
        if kind == "resync":
            return await self.snapshot()
        if kind == "available":
            return await self._added(event)
        if kind == "vote":
            return await self._voted(event)
        await self._on_task_event(event)
        return None

    async def _added(self, event: dict[str, Any]) -> ValidationQueueUpdate | None:
        if event["author"] == self._viewer_id:
            return None
        if len(self._held) >= WINDOW:
            self._withheld = self._count_stale = True
            return None
        row = await self._hub.shared(
            ("queue_example", event["id"], event.get("_sequence")),
            lambda: validation_queries.queue_example(event["id"]),
        )
        if not row or row["status"] != ExampleStatus.OPEN:
            return None
        self._held.add(row["id"])
        return ValidationQueueUpdate(added=[ExampleNode.from_row(row)], removed_ids=[])

    async def _voted(self, event: dict[str, Any]) -> ValidationQueueUpdate | None:
        if event["open"] and self._viewer_id not in event["voter_ids"]:
            return None  # still open for this validator
        # Gone for this validator: sent when held here, when they voted on it, and when they were handed it by
        # nextExamplesToValidate (its claim holders; everyone when the event does not say), not to the others.
        removed = [relay.GlobalID("Example", str(event["id"]))]
        if event["id"] not in self._held:
            if not event["open"] and self._withheld:
                self._count_stale = True  # it may have been one of the examples beyond the window
            holders = event.get("holder_ids")
            if holders is not None and self._viewer_id not in holders and self._viewer_id not in event["voter_ids"]:
                return None
            return ValidationQueueUpdate(added=[], removed_ids=removed)
        self._held.discard(event["id"])
        if not self._withheld or len(self._held) >= WINDOW // 2:
            return ValidationQueueUpdate(added=[], removed_ids=removed)
        # The window runs low and more wait: fill it again (one read for this validator, not one per event).
        rows = await validation_queries.queue_snapshot(self._round_id, self._viewer_id, WINDOW + len(self._held))
        fresh = [row for row in rows if row["id"] not in self._held][: WINDOW - len(self._held)]
        self._held.update(row["id"] for row in fresh)
        waiting = await self._waiting()
        self._withheld = waiting.capped or waiting.count > len(self._held)
        self._count_stale = False
        self._count_sent_at = time.monotonic()
        return ValidationQueueUpdate(added=[ExampleNode.from_row(r) for r in fresh], removed_ids=removed, waiting=waiting)
