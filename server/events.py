"""Events published through Redis after commit, so every API process can push them to its clients."""

from __future__ import annotations

import json
from typing import Any

from redis.asyncio import Redis


def round_channel(round_id: int) -> str:
    return f"dynabench:round:{round_id}"


async def publish(redis: Redis, channel: str, payload: dict[str, Any]) -> None:
    await redis.publish(channel, json.dumps(payload, default=str))


class Listener:
    """`async with Listener(redis, ch) as events:` is subscribed (confirmed by Redis) on entry,
    so a catch-up read done inside the block cannot miss an event published after it."""

    def __init__(self, redis: Redis, *channels: str):
        self._pubsub = redis.pubsub()
        self._channels = channels

    async def __aenter__(self) -> "Listener":
        await self._pubsub.subscribe(*self._channels)
        confirmed = 0
        while confirmed < len(self._channels):
            message = await self._pubsub.get_message(timeout=5)
            if message is None:
                raise ConnectionError("Redis did not confirm the subscription")
            if message["type"] == "subscribe":
                confirmed += 1
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        try:
            await self._pubsub.unsubscribe()
        finally:
            await self._pubsub.aclose()

    def __aiter__(self) -> "Listener":
        return self

    async def __anext__(self) -> dict[str, Any]:
        while True:
            message = await self._pubsub.get_message(ignore_subscribe_messages=True, timeout=None)
            if message is not None and message["type"] == "message":
                return json.loads(message["data"])


def example_channel(example_id: int) -> str:
    return f"dynabench:example:{example_id}"


def queue_channel(round_id: int) -> str:
    """Examples becoming available for validation in a round, or leaving the queue."""
    return f"dynabench:queue:{round_id}"


def model_channel(model_id: int) -> str:
    """A researcher's model: status changes, log lines, evaluation progress."""
    return f"dynabench:model:{model_id}"
