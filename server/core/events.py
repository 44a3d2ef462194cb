"""Events published through Redis after commit, so every API process can push them to its clients."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

from redis.asyncio import Redis

log = logging.getLogger("dynabench.events")


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


class CoalescingPublisher:
    """Fire-and-forget events of many concurrent writers, sent in shared pipelines: while one pipeline
    is in flight, the events of the writers that commit meanwhile gather for the next one (one round
    trip per burst instead of one per write). Order is kept; delivery is best effort, like Pub/Sub."""

    MAX_WAITING = 10_000  # while Redis is unreachable; beyond it the oldest events are dropped

    def __init__(self, redis: Redis) -> None:
        self._redis = redis
        self._waiting: list[tuple[str, dict[str, Any]]] = []
        self._flushing: asyncio.Task | None = None

    def publish_soon(self, messages: list[tuple[str, dict[str, Any]]]) -> None:
        self._waiting.extend(messages)
        if len(self._waiting) > self.MAX_WAITING:
            dropped = len(self._waiting) - self.MAX_WAITING
            del self._waiting[:dropped]
            log.warning("dropped %d live events: Redis is not keeping up", dropped)
        if self._flushing is None:
            self._flushing = asyncio.ensure_future(self._flush())

    async def _flush(self) -> None:
        try:
            while self._waiting:
                batch, self._waiting = self._waiting, []
                try:
                    await publish_many(self._redis, batch)
                except Exception:  # noqa: BLE001 — subscribers re-read state when they reconnect
                    log.warning("could not publish %d live events", len(batch), exc_info=True)
        finally:
            self._flushing = None

    async def drain(self) -> None:
        """Wait until what was handed over so far has been sent (shutdown)."""
        if self._flushing is not None:
            await asyncio.shield(self._flushing)


def example_channel(example_id: int) -> str:
    return f"dynabench:example:{example_id}"


def queue_channel(round_id: int) -> str:
    """Examples becoming available for validation in a round, or leaving the queue."""
    return f"dynabench:queue:{round_id}"


def model_channel(model_id: int) -> str:
    """A researcher's model: status changes, log lines, evaluation progress."""
    return f"dynabench:model:{model_id}"
