"""A value that live subscriptions watch, read once per process per interval however many watch it and however many
events change it (e.g. a round's counters while hundreds of people write to the round).

Without it every event woke every watcher, and each one sent a message: a burst of examples in a round of 200 watchers
was 200 messages an example. A feed holds one subscription to the value's channels for its process; the first event
after a quiet spell is read at once (no added latency; so is a second one soon after), and while events keep coming
they are merged into one read per `interval`, so the last values sent are always the latest. Watchers that
fall behind skip to the latest value. A watcher never gets a value read before one it already has (each value carries
the time its read started), so counters never go backwards on a client (unless they really went down, e.g. a
retraction). Events of other kinds (`passthrough`) reach every watcher unmerged, in order.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from server.core.event_hub import EventHub, HubListener

log = logging.getLogger("dynabench.events")

BURST = 2  # reads at once after a quiet spell, before the interval applies
PASSTHROUGH_KEPT = 256  # a watcher further behind than this many passthrough events gets a resync marker instead


@dataclass(frozen=True)
class FeedValue:
    value: Any
    read_at: float  # time.monotonic() when its read started


class LiveFeed:
    def __init__(self, listener: HubListener, read: Callable[[], Awaitable[Any]], interval: float, passthrough: frozenset[str]):
        self._listener = listener
        self._read = read
        self._interval = interval
        self._passthrough_kinds = passthrough
        self._waiting: set[asyncio.Future[None]] = set()  # one future per waiting watcher, resolved on each change
        self.version = 0  # moves on every new value and every passthrough event
        self.latest: FeedValue | None = None
        self.passthrough: deque[tuple[int, dict[str, Any]]] = deque(maxlen=PASSTHROUGH_KEPT)
        self.failure: BaseException | None = None
        self.watchers = 0
        self.reads = 0  # how many reads it made (benchmarks report reads per event)
        self._task: asyncio.Task | None = None

    def start(self) -> None:
        self._task = asyncio.ensure_future(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task

    async def _run(self) -> None:
        # A token bucket: BURST reads at once after a quiet spell (a vote's events come in twos and threes), then
        # one per interval while changes keep coming.
        tokens, refilled_at = float(BURST), time.monotonic()
        try:
            async for event in self._listener:
                dirty = self._take(event)
                now = time.monotonic()
                refill = (now - refilled_at) / self._interval if self._interval > 0 else BURST
                tokens, refilled_at = min(BURST, tokens + refill), now
                if dirty and tokens < 1:
                    await asyncio.sleep((1 - tokens) * self._interval)  # events meanwhile queue up: merged below
                    tokens, refilled_at = 1.0, time.monotonic()
                for queued in self._listener.queued():
                    dirty = self._take(queued) or dirty
                if not dirty:
                    continue
                tokens -= 1
                read_at = time.monotonic()
                value = await self._read()
                self.reads += 1
                self.latest = FeedValue(value, read_at)
                self._moved()
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 (handed to the watchers) e.g. PostgreSQL down: every watcher's subscription ends with the (masked) error
            log.warning("live feed stopped: %s", type(exc).__name__)
            self.failure = exc
            self._moved()

    def _take(self, event: dict[str, Any]) -> bool:
        """True when the event changes the value; passthrough events are handed to every watcher as they are."""
        if event.get("kind") not in self._passthrough_kinds:
            return True
        self.passthrough.append((self.version + 1, event))
        self._moved()
        return False

    def _moved(self) -> None:
        """A new value, failure or passthrough event: every waiting watcher wakes."""
        self.version += 1
        waiting, self._waiting = self._waiting, set()
        for waiter in waiting:
            if not waiter.done():  # (a watcher cancelled meanwhile)
                waiter.set_result(None)

    async def wait_beyond(self, version: int) -> None:
        # A future of its own per watcher (not one shared future behind asyncio.shield): a thousand watchers wake in
        # one step each, and a cancelled watcher cancels only its own.
        while self.version <= version and self.failure is None:
            waiter = asyncio.get_running_loop().create_future()
            self._waiting.add(waiter)
            try:
                await waiter
            finally:
                self._waiting.discard(waiter)


class FeedWatcher:
    """One subscription's view of a feed: `async for kind, payload in watcher` gives ("value", v) for each newer
    value (skipping to the latest) and ("event", e) for each passthrough event, in order."""

    def __init__(self, feed: LiveFeed, first_read_at: float):
        self._feed = feed
        self._seen = feed.version
        self._read_at = first_read_at

    def __aiter__(self) -> AsyncIterator[tuple[str, Any]]:
        return self._updates()

    async def _updates(self) -> AsyncIterator[tuple[str, Any]]:
        feed = self._feed
        while True:
            await feed.wait_beyond(self._seen)
            if feed.failure is not None:
                raise feed.failure
            seen, self._seen = self._seen, feed.version
            events = [event for version, event in feed.passthrough if version > seen]
            if feed.passthrough and feed.passthrough[0][0] > seen + 1 and len(feed.passthrough) == PASSTHROUGH_KEPT:
                events.insert(0, {"kind": "resync"})  # some passthrough events were dropped before this watcher saw them
            for event in events:
                yield "event", event
            latest = feed.latest
            if latest is not None and latest.read_at > self._read_at:
                self._read_at = latest.read_at
                yield "value", latest.value


class LiveFeeds:
    """The process's feeds by key, each alive while it has watchers."""

    def __init__(self, hub: EventHub):
        self._hub = hub
        self._feeds: dict[Any, LiveFeed] = {}
        self._lock = asyncio.Lock()

    @contextlib.asynccontextmanager
    async def watch(
        self,
        key: Any,
        channels: tuple[str, ...],
        read: Callable[[], Awaitable[Any]],
        *,
        interval: float,
        passthrough: frozenset[str] = frozenset(),
    ) -> AsyncIterator[tuple[Any, FeedWatcher]]:
        """Subscribed (confirmed) on entry; yields (the value read now, a watcher of the changes after that read)."""
        feed = await self._join(key, channels, read, interval, passthrough)
        try:
            read_at = time.monotonic()
            first = await read()
            yield first, FeedWatcher(feed, read_at)
        finally:
            await self._leave(key, feed)

    async def _join(self, key, channels, read, interval, passthrough) -> LiveFeed:
        async with self._lock:
            feed = self._feeds.get(key)
            if feed is None or feed.failure is not None:
                listener = self._hub.listen(*channels)
                await listener.__aenter__()
                feed = self._feeds[key] = LiveFeed(listener, read, interval, passthrough)
                feed.start()
            feed.watchers += 1
            return feed

    async def _leave(self, key, feed: LiveFeed) -> None:
        async with self._lock:
            feed.watchers -= 1
            if feed.watchers > 0:
                return
            if self._feeds.get(key) is feed:
                del self._feeds[key]
        await feed.stop()
        await feed._listener.__aexit__(None, None, None)
