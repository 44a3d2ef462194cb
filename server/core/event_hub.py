"""One Redis pub/sub connection per API process, shared by every live subscription in it.

A connection per websocket subscription does not scale (hundreds of validators watching one round
means hundreds of Redis connections, and every event makes each of them re-read the same row). The
hub holds one pub/sub connection, subscribes a channel once however many local listeners want it,
fans each message out to their queues, and lets listeners woken by the same message share one
database read (`shared`). If Redis goes away, it reconnects with backoff, re-subscribes, and tells
every listener to re-read its state (a `resync` event), so a restart loses nobody's live view.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

from redis.asyncio import Redis
from redis.exceptions import RedisError

log = logging.getLogger("dynabench.events")

RESYNC = {"kind": "resync"}  # delivered after a reconnect: events may have been missed
QUEUE_MAX = 1000  # a listener this far behind gets a resync instead of more events
SUBSCRIBE_TIMEOUT_S = 5.0


class EventHub:
    def __init__(self, redis: Redis):
        self._redis = redis
        self._pubsub = None
        self._reader: asyncio.Task | None = None
        self._queues: dict[str, set[asyncio.Queue]] = {}
        self._confirmed: dict[str, asyncio.Future] = {}
        self._sequence = 0
        self._reads: OrderedDict[Any, asyncio.Future] = OrderedDict()
        self._lock = asyncio.Lock()

    def listen(self, *channels: str) -> HubListener:
        return HubListener(self, channels)

    async def shared(self, key: Any, read: Callable[[], Awaitable[Any]]) -> Any:
        """`read()` once for every listener that asks with the same key (key = what + event sequence)."""
        future = self._reads.get(key)
        if future is None:
            future = self._reads[key] = asyncio.ensure_future(read())
            while len(self._reads) > 512:
                self._reads.popitem(last=False)
        return await asyncio.shield(future)

    async def _add(self, channel: str, queue: asyncio.Queue) -> None:
        async with self._lock:
            self._queues.setdefault(channel, set()).add(queue)
            confirmed = self._confirmed.get(channel)
            if confirmed is None:
                confirmed = self._confirmed[channel] = asyncio.get_running_loop().create_future()
                try:
                    await self._subscribe(channel)
                except (RedisError, OSError, RuntimeError) as exc:
                    self._forget(channel, queue)
                    raise ConnectionError(f"Redis is unreachable: {exc}") from None
                self._ensure_reader()
        try:
            await asyncio.wait_for(asyncio.shield(confirmed), SUBSCRIBE_TIMEOUT_S)
        except TimeoutError:
            self._forget(channel, queue)
            raise ConnectionError("Redis did not confirm the subscription") from None

    async def _subscribe(self, channel: str) -> None:
        """SUBSCRIBE on the shared pub/sub connection. redis-py may ping it first (a health check) while the
        reader waits on the same socket, which raises RuntimeError; the reader then reconnects: try again."""
        for attempt in range(3):
            await self._ensure_connection()
            try:
                await self._pubsub.subscribe(channel)
                return
            except RuntimeError:
                if attempt == 2:
                    raise
                await asyncio.sleep(0.1 * (attempt + 1))

    def _forget(self, channel: str, queue: asyncio.Queue) -> None:
        queues = self._queues.get(channel)
        if queues is None:
            return
        queues.discard(queue)
        if not queues:
            del self._queues[channel]
            confirmed = self._confirmed.pop(channel, None)
            if confirmed is not None and not confirmed.done():
                confirmed.cancel()
            if self._pubsub is not None:
                task = asyncio.ensure_future(self._unsubscribe(channel))
                task.add_done_callback(lambda t: t.cancelled() or t.exception())

    async def _unsubscribe(self, channel: str) -> None:
        async with self._lock:
            if channel not in self._queues and self._pubsub is not None:
                with contextlib.suppress(RedisError, OSError):
                    await self._pubsub.unsubscribe(channel)

    async def _ensure_connection(self) -> None:
        if self._pubsub is None:
            self._pubsub = self._redis.pubsub()

    def _ensure_reader(self) -> None:
        if self._reader is None or self._reader.done():
            self._reader = asyncio.ensure_future(self._read_forever())

    async def _read_forever(self) -> None:
        backoff = 0.2
        while True:  # until close(): a listener may arrive at any moment
            try:
                message = await self._pubsub.get_message(timeout=1.0)
                backoff = 0.2
            except (RedisError, OSError, RuntimeError) as exc:
                log.warning("event hub lost Redis (%s); reconnecting", type(exc).__name__)
                await asyncio.sleep(backoff)
                backoff = min(5.0, backoff * 2)
                await self._reconnect()
                continue
            if message is not None:
                self._dispatch(message)

    async def _reconnect(self) -> None:
        async with self._lock:
            old, self._pubsub = self._pubsub, self._redis.pubsub()
            if old is not None:
                with contextlib.suppress(Exception):
                    await old.aclose()
            try:
                if self._queues:
                    await self._pubsub.subscribe(*self._queues)
            except (RedisError, OSError):
                return  # the reader retries with backoff
        for queues in self._queues.values():
            for queue in queues:
                _offer(queue, RESYNC)

    def _dispatch(self, message: dict) -> None:
        channel = message["channel"]
        channel = channel.decode() if isinstance(channel, bytes) else channel
        if message["type"] == "subscribe":
            confirmed = self._confirmed.get(channel)
            if confirmed is not None and not confirmed.done():
                confirmed.set_result(True)
            return
        if message["type"] != "message":
            return
        self._sequence += 1
        try:
            event = {**json.loads(message["data"]), "_sequence": self._sequence}
        except (ValueError, TypeError):
            log.warning("ignored a malformed event on %s", channel)
            return
        for queue in self._queues.get(channel, ()):
            _offer(queue, event)

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(BaseException):
                await self._reader
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await self._pubsub.aclose()


def _offer(queue: asyncio.Queue, event: dict) -> None:
    if queue.full():  # far behind: drop the backlog, the listener re-reads its state instead
        while not queue.empty():
            queue.get_nowait()
        event = RESYNC
    queue.put_nowait(event)


class HubListener:
    """`async with hub.listen(ch) as events:` is subscribed (confirmed by Redis) on entry, so a
    catch-up read done inside the block cannot miss an event published after it."""

    def __init__(self, hub: EventHub, channels: tuple[str, ...]):
        self._hub = hub
        self._channels = channels
        self._queue: asyncio.Queue = asyncio.Queue(maxsize=QUEUE_MAX)
        self._added: list[str] = []

    async def __aenter__(self) -> HubListener:
        try:
            for channel in self._channels:
                await self._hub._add(channel, self._queue)
                self._added.append(channel)
        except BaseException:
            await self.__aexit__(None, None, None)
            raise
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        for channel in self._added:
            self._hub._forget(channel, self._queue)
        self._added.clear()

    def __aiter__(self) -> HubListener:
        return self

    async def __anext__(self) -> dict[str, Any]:
        return await self._queue.get()

    def queued(self) -> list[dict[str, Any]]:
        """The events already waiting, without waiting for more (a listener that can merge them takes them at once)."""
        events = []
        while not self._queue.empty():
            events.append(self._queue.get_nowait())
        return events
