"""The live feed's merging (server/core/live_feed.py), driven by a stand-in for the hub's listener: a burst of events
is read once per interval, the last value sent is the latest, and no watcher gets an older value after a newer one."""

import asyncio
import time

from server.core.live_feed import BURST, FeedWatcher, LiveFeed


class Channel:
    """What the feed needs of a HubListener: iteration over events and the events already queued."""

    def __init__(self):
        self.queue: asyncio.Queue = asyncio.Queue()

    def __aiter__(self):
        return self

    async def __anext__(self):
        return await self.queue.get()

    def queued(self):
        events = []
        while not self.queue.empty():
            events.append(self.queue.get_nowait())
        return events


async def _collect(watcher: FeedWatcher, into: list, until):
    async for kind, payload in watcher:
        into.append((kind, payload))
        if until(kind, payload):
            return


async def test_a_burst_of_changes_is_read_once_per_interval_and_ends_with_the_latest_value():
    state = {"count": 0}

    async def read():
        await asyncio.sleep(0.001)
        return state["count"]

    channel = Channel()
    feed = LiveFeed(channel, read, interval=0.2, passthrough=frozenset({"task"}))  # type: ignore[arg-type]
    feed.start()
    watchers = [FeedWatcher(feed, first_read_at=0.0) for _ in range(50)]
    received: list[list] = [[] for _ in watchers]
    tasks = [
        asyncio.ensure_future(_collect(w, r, lambda kind, value: kind == "value" and value == 100))
        for w, r in zip(watchers, received)
    ]
    started = time.monotonic()
    for _ in range(100):  # 100 changes in about 0.5 s
        state["count"] += 1
        channel.queue.put_nowait({"kind": "round_stats"})
        await asyncio.sleep(0.005)
    await asyncio.wait_for(asyncio.gather(*tasks), 10)
    elapsed = time.monotonic() - started
    await feed.stop()

    # BURST at once, then at most one per 0.2 s however long this took on a busy machine: not one per change (100)
    assert feed.reads <= BURST + elapsed / 0.2 + 1 < 100
    for values in received:
        counts = [value for kind, value in values if kind == "value"]
        assert counts[-1] == 100
        assert counts == sorted(counts)  # never backwards
        assert len(counts) <= feed.reads


async def test_the_first_change_after_a_quiet_spell_is_read_at_once_and_passthrough_events_arrive_in_order():
    state = {"count": 0}

    async def read():
        return state["count"]

    channel = Channel()
    feed = LiveFeed(channel, read, interval=30.0, passthrough=frozenset({"task"}))  # type: ignore[arg-type]
    feed.start()
    watcher = FeedWatcher(feed, first_read_at=0.0)
    received: list = []
    state["count"] = 1
    channel.queue.put_nowait({"kind": "task", "n": 1})
    channel.queue.put_nowait({"kind": "round_stats"})
    channel.queue.put_nowait({"kind": "task", "n": 2})
    # A 30 s interval: had the first change waited for it, this would time out.
    await asyncio.wait_for(_collect(watcher, received, lambda kind, value: kind == "value"), 5)
    await feed.stop()
    events = [payload["n"] for kind, payload in received if kind == "event"]
    assert events == [1, 2]
    assert received[-1] == ("value", 1)


async def test_a_value_read_before_the_watchers_own_first_read_is_not_sent_to_it():
    async def read():
        return "old"

    channel = Channel()
    feed = LiveFeed(channel, read, interval=0.0, passthrough=frozenset({"task"}))  # type: ignore[arg-type]
    feed.start()
    channel.queue.put_nowait({"kind": "round_stats"})
    while feed.latest is None:
        await asyncio.sleep(0.001)
    late = FeedWatcher(feed, first_read_at=feed.latest.read_at + 1)  # its own first read started after that one
    late._seen = 0  # as if it joined before that value was published
    received: list = []
    channel.queue.put_nowait({"kind": "task", "n": 1})
    await asyncio.wait_for(_collect(late, received, lambda kind, value: kind == "event"), 5)
    await feed.stop()
    assert received == [("event", {"kind": "task", "n": 1})]


async def test_a_failed_read_ends_every_watcher_with_the_error():
    async def read():
        raise ConnectionError("PostgreSQL is down")

    channel = Channel()
    feed = LiveFeed(channel, read, interval=0.0, passthrough=frozenset())  # type: ignore[arg-type]
    feed.start()
    watcher = FeedWatcher(feed, first_read_at=0.0)
    channel.queue.put_nowait({"kind": "round_stats"})
    try:
        await asyncio.wait_for(_collect(watcher, [], lambda kind, value: True), 5)
    except ConnectionError as exc:
        assert "down" in str(exc)
    else:
        raise AssertionError("the watcher should have ended with the read's error")
    await feed.stop()
