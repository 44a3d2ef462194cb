"""server/graphql/core/shared_events.py: a subscription event is executed once for every watcher whose selection
reads only the event object, and per watcher as soon as the selection can see the viewer."""

from __future__ import annotations

import asyncio
import gc
import json

import strawberry
from graphql.execution.collect_fields import FieldDetails
from strawberry.types import Info

from server.graphql.core.shared_events import SharingExecutionContext, encoded_next, shared

CALLS = {"ratio": 0, "viewer": 0}


@strawberry.type
class Counter(strawberry.relay.Node):
    key: strawberry.relay.NodeID[int]
    total: int
    fooled: int

    @strawberry.field
    def ratio(self) -> float:
        CALLS["ratio"] += 1
        return self.fooled / self.total

    @strawberry.field
    def seen_by(self, info: Info) -> str:
        CALLS["viewer"] += 1
        return info.context["viewer"]


@strawberry.type
class Holder:
    counter: Counter


@strawberry.type
class Query:
    ping: int = 1


class Feed:
    """Hands the same objects to every watcher, as a live feed does."""

    def __init__(self) -> None:
        self.values: asyncio.Queue = asyncio.Queue()
        self.watchers: list[asyncio.Queue] = []

    async def publish(self, value: object, share: bool = True) -> None:
        if share:
            shared(value)
        for queue in self.watchers:
            await queue.put(value)


FEED = Feed()


@strawberry.type
class Subscription:
    @strawberry.subscription
    async def counter(self, info: Info, scale: int = 1) -> Counter:  # type: ignore[misc]
        queue: asyncio.Queue = asyncio.Queue()
        FEED.watchers.append(queue)
        try:
            while True:
                yield await queue.get()
        finally:
            FEED.watchers.remove(queue)

    @strawberry.subscription
    async def holder(self, info: Info) -> Holder:  # type: ignore[misc]
        queue: asyncio.Queue = asyncio.Queue()
        FEED.watchers.append(queue)
        try:
            while True:
                yield Holder(counter=await queue.get())
        finally:
            FEED.watchers.remove(queue)


SCHEMA = strawberry.Schema(query=Query, subscription=Subscription, execution_context_class=SharingExecutionContext)


async def _watch(query: str, viewers: list[str], event: object, variables: dict | None = None, share: bool = True) -> list[dict]:
    streams = [await SCHEMA.subscribe(query, variable_values=variables, context_value={"viewer": v}) for v in viewers]
    firsts = [asyncio.ensure_future(anext(stream)) for stream in streams]
    while len(FEED.watchers) < len(viewers):
        await asyncio.sleep(0)
    await FEED.publish(event, share)
    results = await asyncio.gather(*firsts)
    for stream in streams:
        await stream.aclose()
    assert all(not r.errors for r in results), [r.errors for r in results]
    return [r.data for r in results]


def _run(
    query: str, viewers: list[str], event: object, variables: dict | None = None, share: bool = True
) -> tuple[list[dict], dict]:
    CALLS.update(ratio=0, viewer=0)
    data = asyncio.run(_watch(query, viewers, event, variables, share))
    return data, dict(CALLS)


def test_a_selection_of_the_event_alone_is_executed_once_for_all_watchers():
    event = Counter(key=7, total=4, fooled=1)
    data, calls = _run("subscription { counter { id total ratio __typename } }", ["ann", "bob", "eve"], event)
    assert data[0] == {"counter": {"id": "Q291bnRlcjo3", "total": 4, "ratio": 0.25, "__typename": "Counter"}}
    assert data[1] == data[0] and data[2] == data[0]
    assert calls["ratio"] == 1
    assert data[0] is data[1]  # one result object, hence one JSON encoding
    text = encoded_next("op", data[0], lambda d: json.dumps(d, separators=(",", ":")))
    assert json.loads(text) == {"id": "op", "type": "next", "payload": {"data": data[0]}}


def test_an_object_not_marked_shared_is_executed_per_watcher():
    # (e.g. a producer that changes an object between events: a result kept by identity would be stale)
    data, calls = _run("subscription { counter { total ratio } }", ["ann", "bob"], Counter(key=2, total=5, fooled=1), share=False)
    assert data == [{"counter": {"total": 5, "ratio": 0.2}}] * 2 and calls["ratio"] == 2 and data[0] is not data[1]


def test_a_field_that_can_see_the_viewer_is_executed_per_watcher():
    event = Counter(key=1, total=2, fooled=2)
    data, calls = _run("subscription { counter { total ratio seenBy } }", ["ann", "bob"], event)
    assert [d["counter"]["seenBy"] for d in data] == ["ann", "bob"]
    assert calls == {"ratio": 2, "viewer": 2}
    assert encoded_next("op", data[0], json.dumps) is None  # not shared: encoded per watcher as before


def test_fragments_nested_objects_and_variables_are_part_of_the_decision():
    event = Counter(key=3, total=10, fooled=5)
    query = "subscription($r: Boolean!) { holder { counter { ...C } } } fragment C on Counter { total ratio @include(if: $r) }"
    data, calls = _run(query, ["ann", "bob"], event, {"r": True})
    # `holder` builds a new Holder per watcher: nothing in common to share, each is executed (and correct).
    assert data == [{"holder": {"counter": {"total": 10, "ratio": 0.5}}}] * 2 and calls["ratio"] == 2
    counter_query = "subscription($r: Boolean!) { counter { ...C } } fragment C on Counter { total ratio @include(if: $r) }"
    data, calls = _run(counter_query, ["ann", "bob"], event, {"r": False})
    assert data == [{"counter": {"total": 10}}] * 2 and calls["ratio"] == 0
    data, calls = _run(
        "subscription { counter { ... on Counter { total seenBy } } }", ["ann", "bob"], Counter(key=4, total=1, fooled=0)
    )
    assert [d["counter"]["seenBy"] for d in data] == ["ann", "bob"] and calls["viewer"] == 2


def test_different_variables_are_executed_apart():
    event = Counter(key=5, total=3, fooled=3)

    async def two_selections() -> list[dict]:
        query = "subscription($s: Int!) { counter(scale: $s) { total ratio } }"
        streams = [await SCHEMA.subscribe(query, variable_values={"s": s}, context_value={"viewer": "x"}) for s in (1, 2)]
        firsts = [asyncio.ensure_future(anext(stream)) for stream in streams]
        while len(FEED.watchers) < 2:
            await asyncio.sleep(0)
        await FEED.publish(event)
        results = await asyncio.gather(*firsts)
        for stream in streams:
            await stream.aclose()
        return [r.data for r in results]

    CALLS.update(ratio=0)
    data = asyncio.run(two_selections())
    assert data == [{"counter": {"total": 3, "ratio": 1.0}}] * 2
    assert CALLS["ratio"] == 2 and data[0] is not data[1]


async def _kept_while_delivering(events: int, share: bool) -> int:
    """Delivers `events` events to one open subscription; how many field-collection records its execution then keeps."""
    stream = await SCHEMA.subscribe("subscription { holder { counter { total ratio } } }")
    first = asyncio.ensure_future(anext(stream))
    while not FEED.watchers:
        await asyncio.sleep(0)
    gc.collect()
    baseline = sum(isinstance(o, FieldDetails) for o in gc.get_objects())
    for number in range(events):
        await FEED.publish(Counter(key=number, total=2, fooled=1), share)
        result = await (first if number == 0 else anext(stream))
        assert not result.errors and result.data["holder"]["counter"]["total"] == 2
    gc.collect()
    kept = sum(isinstance(o, FieldDetails) for o in gc.get_objects()) - baseline
    await stream.aclose()
    return kept


def test_a_long_subscription_keeps_no_memo_of_the_events_it_delivered():
    # graphql-core's per-event executors share the subscription's subfield memo, keyed by lists made anew per event:
    # before the fix, 300 events left ~1,200 records behind (the heap grew with every event ever delivered)
    for share in (False, True):
        assert asyncio.run(_kept_while_delivering(300, share)) < 20
