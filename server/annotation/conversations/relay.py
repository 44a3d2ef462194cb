"""A reply's stream between the process generating it and every subscription that shows it.

Each piece goes to a Redis stream (the replay: a subscription that starts late, or reconnects, reads what came so
far) and is published on the reply's channel (the live path, through the process's shared pub/sub hub). A subscriber
listens first, then reads the replay, then skips published pieces it already has (by sequence number), so nothing
is lost or shown twice. The same channel carries `stop` to the generating process.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from redis.asyncio import Redis

from server.core.event_hub import EventHub
from server.core.jsonutil import to_json

REPLAY_TTL_S = 900  # a finished reply's stream stays this long; after that its row answers


def stream_id(turn: dict[str, Any]) -> str:
    """One attempt at a reply: the turn and when the attempt started (a retried reply is a new stream, and ids that a
    restored database hands out again never meet an old stream)."""
    return f"{turn['id']}.{int(turn['started_at'].timestamp() * 1_000_000)}"


def channel(stream: str) -> str:
    return f"dynabench:reply:{stream}"


def _replay_key(stream: str) -> str:
    return f"dynabench:reply-replay:{stream}"


@dataclass(frozen=True)
class ReplyEvent:
    seq: int
    text: str = ""  # what was generated since the previous event
    end: dict[str, Any] | None = None  # the last event: {"status", "error", "judge_score", "model_version"}


class ReplyPublisher:
    """The generating side: numbered pieces, each written to the replay and published in one round trip."""

    def __init__(self, redis: Redis, stream: str, seq: int = 0) -> None:
        self._redis, self.stream, self._seq = redis, stream, seq

    async def piece(self, text: str) -> None:
        await self._send({"kind": "piece", "text": text})

    async def end(self, outcome: dict[str, Any]) -> None:
        await self._send({"kind": "end", **outcome}, expire=True)

    async def _send(self, payload: dict[str, Any], expire: bool = False) -> None:
        self._seq += 1
        message = to_json({**payload, "seq": self._seq})
        key = _replay_key(self.stream)
        async with self._redis.pipeline(transaction=False) as pipe:
            pipe.rpush(key, message)
            if expire or self._seq == 1:  # set when the replay starts, and again when it ends
                pipe.expire(key, REPLAY_TTL_S)
            pipe.publish(channel(self.stream), message)
            await pipe.execute()


async def replay_text(redis: Redis, stream: str) -> str:
    """The text a reply's replay holds (what was streamed before its process ended)."""
    messages = [json.loads(m) for m in await redis.lrange(_replay_key(stream), 0, -1)]
    return "".join(str(m.get("text", "")) for m in messages if m.get("kind") == "piece")


async def end_lost_reply(redis: Redis, stream: str, outcome: dict[str, Any]) -> None:
    """The end event of a reply whose process is gone, numbered after whatever it sent."""
    await ReplyPublisher(redis, stream, seq=await redis.llen(_replay_key(stream))).end(outcome)


async def request_stop(redis: Redis, stream: str) -> None:
    await redis.publish(channel(stream), to_json({"kind": "stop"}))


def _event(message: dict[str, Any]) -> ReplyEvent | None:
    kind = message.get("kind")
    if kind == "piece":
        return ReplyEvent(int(message["seq"]), str(message.get("text", "")))
    if kind == "end":
        return ReplyEvent(int(message["seq"]), end={k: v for k, v in message.items() if k not in ("kind", "seq")})
    return None  # stop requests, resyncs


async def follow(redis: Redis, hub: EventHub, stream: str) -> AsyncIterator[ReplyEvent | None]:
    """The reply's events in order, from its first piece, ending with its `end` event. Yields None first when no
    replay exists (the reply finished long ago, or its process has not sent anything yet): the caller then
    reads the row and decides."""
    async with hub.listen(channel(stream)) as live:
        seen = 0
        replay = [json.loads(m) for m in await redis.lrange(_replay_key(stream), 0, -1)]
        if not replay:
            yield None
        for message in replay:
            event = _event(message)
            if event is not None and event.seq > seen:
                seen = event.seq
                yield event
                if event.end is not None:
                    return
        async for message in live:
            # Pieces that arrived together go out as one (under load, fewer and larger messages to the client).
            batch = [message, *live.queued()]
            if any(m.get("kind") == "resync" for m in batch):  # the hub reconnected: pieces may have been missed
                batch = [json.loads(m) for m in await redis.lrange(_replay_key(stream), seen, -1)]
            events = [e for e in map(_event, batch) if e is not None and e.seq > seen]
            text = "".join(e.text for e in events if e.end is None)
            if text:
                seen = max(e.seq for e in events if e.end is None)
                yield ReplyEvent(seen, text)
            for event in events:
                if event.end is not None and event.seq > seen:
                    yield event
                    return


async def first_stop(live: AsyncIterator[dict[str, Any]]) -> None:
    """Returns at the first stop request on a listener of the reply's channel (the generating process's)."""
    async for message in live:
        if message.get("kind") == "stop":
            return
