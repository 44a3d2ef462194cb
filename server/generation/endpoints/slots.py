"""An endpoint's concurrency limit, shared by every API and worker process: a Redis sorted set per endpoint whose
members are the calls holding a slot, scored by when their lease expires. A call takes a slot only while fewer than
`max_concurrency` leases are live (one Lua script: the check and the take are atomic), renews its lease while it
streams, and gives it back when it ends; a process that dies leaves a lease that expires after LEASE_S. Redis's own
clock decides expiry, so the processes' clocks need not agree. When Redis cannot be reached the call goes ahead without
a slot (logged), as the rate limits do (server/core/rate_limits.py): replies must not stop with Redis."""

from __future__ import annotations

import asyncio
import logging
import os
import time
from dataclasses import dataclass

from redis.asyncio import Redis
from redis.exceptions import RedisError

log = logging.getLogger("dynabench.generation")

KEY_PREFIX = "dynabench:llm-slots:"
LEASE_S = 30.0  # a live call renews its lease at least every LEASE_S / 3
POLL_S = 0.05

# KEYS[1] the set; ARGV: member, lease ms, limit. Returns 1 when the slot was taken.
_TAKE = """
local now = redis.call('TIME')
local now_ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now_ms)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], now_ms + tonumber(ARGV[2]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]) * 2)
return 1
"""
# Renew a lease that is still held (XX: never re-adds one that expired and was taken by another call).
_RENEW = """
local now = redis.call('TIME')
local now_ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local renewed = redis.call('ZADD', KEYS[1], 'XX', 'CH', now_ms + tonumber(ARGV[2]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]) * 2)
return renewed
"""


@dataclass
class Slot:
    redis: Redis | None  # None: taken while Redis was unreachable (nothing to renew or give back)
    key: str
    member: str
    renewed_at: float

    async def keep(self) -> None:
        """Renew the lease when a third of it has passed (called on each streamed piece; cheap otherwise)."""
        if self.redis is not None and time.monotonic() - self.renewed_at >= LEASE_S / 3:
            self.renewed_at = time.monotonic()
            try:
                await self.redis.eval(_RENEW, 1, self.key, self.member, int(LEASE_S * 1000))  # type: ignore[misc]
            except RedisError as error:
                log.warning("LLM slot %s not renewed (%s)", self.key, type(error).__name__)

    async def release(self) -> None:
        if self.redis is not None:
            try:
                await self.redis.zrem(self.key, self.member)
            except RedisError as error:  # the lease expires on its own
                log.warning("LLM slot %s not given back (%s)", self.key, type(error).__name__)


async def take(redis: Redis, endpoint: str, limit: int, wait_s: float) -> Slot | None:
    """A slot of the endpoint, waiting up to `wait_s` for one to free; None if none did."""
    key, member = KEY_PREFIX + endpoint, os.urandom(12).hex()
    deadline = time.monotonic() + max(0.0, wait_s)
    while True:
        try:
            taken = await redis.eval(_TAKE, 1, key, member, int(LEASE_S * 1000), max(1, limit))  # type: ignore[misc]
        except RedisError as error:
            log.warning(
                "LLM endpoint %s: no concurrency slot without Redis (%s); the call goes ahead", endpoint, type(error).__name__
            )
            return Slot(None, key, member, time.monotonic())
        if taken:
            return Slot(redis, key, member, time.monotonic())
        if time.monotonic() >= deadline:
            return None
        await asyncio.sleep(min(POLL_S, max(0.0, deadline - time.monotonic())))


async def held(redis: Redis, endpoint: str) -> int:
    """How many calls hold a slot now (for tests and metrics)."""
    key = KEY_PREFIX + endpoint
    now_s, now_us = await redis.time()
    return int(await redis.zcount(key, now_s * 1000 + now_us // 1000, "+inf"))
