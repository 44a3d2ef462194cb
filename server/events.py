"""Events published through Redis after commit, so every API process can push them to its clients."""

from __future__ import annotations

import json
from typing import Any

from redis.asyncio import Redis


def round_channel(round_id: int) -> str:
    return f"dynabench:round:{round_id}"


async def publish(redis: Redis, channel: str, payload: dict[str, Any]) -> None:
    await redis.publish(channel, json.dumps(payload, default=str))


async def publish_many(redis: Redis, messages: list[tuple[str, dict[str, Any]]]) -> None:
    """Several events in one round trip (a pipeline, not a transaction: each is independent)."""
    async with redis.pipeline(transaction=False) as pipe:
        for channel, payload in messages:
            pipe.publish(channel, json.dumps(payload, default=str))
        await pipe.execute()


def example_channel(example_id: int) -> str:
    return f"dynabench:example:{example_id}"


def queue_channel(round_id: int) -> str:
    """Examples becoming available for validation in a round, or leaving the queue."""
    return f"dynabench:queue:{round_id}"


def model_channel(model_id: int) -> str:
    """A researcher's model: status changes, log lines, evaluation progress."""
    return f"dynabench:model:{model_id}"
