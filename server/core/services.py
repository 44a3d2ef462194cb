"""Long-lived clients shared by request handlers: Redis, arq, Triton. Created at startup."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

from arq import create_pool
from arq.connections import ArqRedis, RedisSettings
from redis.asyncio import Redis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from tritonclient.http.aio import InferenceServerClient

from server.core import queries
from server.core.batched_reads import BatchedReads
from server.core.event_hub import EventHub
from server.core.events import CoalescingPublisher
from server.core.live_feed import LiveFeeds
from server.core.settings import Settings
from server.core.triton_clients import triton_client
from server.observability.jobs import serialize_job

# A Redis restart (a second or two) must not fail the requests that meet it: commands on a broken
# connection are retried on a new one with backoff (every command we send tolerates a repeat:
# jobs are idempotent, counters are rate-limit windows).
REDIS_RETRY_ON = (RedisConnectionError, RedisTimeoutError)


def redis_retry() -> Retry:
    return Retry(ExponentialBackoff(cap=1.0, base=0.05), retries=8)


def redis_settings(url: str) -> RedisSettings:
    """arq's connection settings with the same retry policy (API, worker and CLI pools)."""
    settings = RedisSettings.from_dsn(url)
    settings.retry, settings.retry_on_error = redis_retry(), list(REDIS_RETRY_ON)
    return settings


@dataclass
class Services:
    settings: Settings
    redis: Redis
    arq: ArqRedis
    triton: InferenceServerClient
    triton_submissions: InferenceServerClient
    hub: EventHub = field(init=False)  # live subscriptions' shared Redis pub/sub connection
    publisher: CoalescingPublisher = field(init=False)  # after-commit events of concurrent writes
    feeds: LiveFeeds = field(init=False)  # values live subscriptions share, read once per change burst
    batches: BatchedReads = field(init=False)  # reads live subscriptions make together (e.g. waiting counts)

    def __post_init__(self) -> None:
        self.hub = EventHub(self.redis)
        self.feeds = LiveFeeds(self.hub)
        self.batches = BatchedReads()
        self.publisher = CoalescingPublisher(self.redis)

    @classmethod
    async def start(cls, settings: Settings) -> Services:
        redis = Redis.from_url(
            settings.redis_url,
            socket_connect_timeout=5,
            health_check_interval=30,
            retry=redis_retry(),
            retry_on_error=list(REDIS_RETRY_ON),
        )
        # serialize_job: jobs enqueued during a request carry its request id to the worker's logs.
        arq = await create_pool(redis_settings(settings.redis_url), retry=2, job_serializer=serialize_job)
        return cls(
            settings=settings,
            redis=redis,
            arq=arq,
            # Every inference call is bounded by its own asyncio timeout; the client-wide limit only
            # has to allow model loads (weights are sent in the request) to finish.
            triton=triton_client(settings.triton_url, settings.triton_control_key),
            triton_submissions=triton_client(settings.triton_submissions_url, settings.triton_control_key),
        )

    async def close(self) -> None:
        for closer in (
            self.publisher.drain,
            self.hub.close,
            self.redis.aclose,
            self.arq.aclose,
            self.triton.close,
            self.triton_submissions.close,
        ):
            try:
                await closer()
            except Exception:  # noqa: BLE001 — shutting down; nothing left to report to
                pass

    async def health(self) -> dict[str, dict[str, Any]]:
        async def database() -> None:
            await queries.ping()

        async def redis() -> None:
            await self.redis.ping()

        async def triton() -> None:
            if not await self.triton.is_server_live():
                raise RuntimeError("not live")

        async def triton_submissions() -> None:
            if not await self.triton_submissions.is_server_live():
                raise RuntimeError("not live")

        checks = {"database": database, "redis": redis, "triton": triton, "triton_submissions": triton_submissions}
        results = await asyncio.gather(*(_probe(check) for check in checks.values()))
        return dict(zip(checks, results))


async def _probe(check) -> dict[str, Any]:
    started = time.perf_counter()
    try:
        await asyncio.wait_for(check(), timeout=3)
    except Exception as exc:  # noqa: BLE001 — any failure means "down"; report its kind, not a trace
        return {"ok": False, "error": f"{type(exc).__name__}: {exc}"[:300]}
    return {"ok": True, "latency_ms": round((time.perf_counter() - started) * 1000, 2)}
