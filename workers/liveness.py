"""Jobs of a dead worker run again within seconds, not after arq's in-progress timeout.

arq marks a started job with an `arq:in-progress:<id>` key that expires only after the longest job
timeout (an hour here), and leaves the job in its queue until it finishes. A worker killed with
SIGKILL (OOM killer, lost machine) therefore blocks its jobs for an hour. Each worker here keeps a
short-lived heartbeat key and records which jobs it runs; the `recover_orphaned_jobs` cron deletes
the in-progress key of every job whose worker's heartbeat has expired, so the next poll of any
worker runs it again (every job is idempotent: it recomputes from rows).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import uuid

from arq.constants import in_progress_key_prefix, keep_cronjob_progress
from redis.exceptions import RedisError

log = logging.getLogger("dynabench.worker")


def heartbeat_ttl_s() -> int:
    """How long a silent worker is taken for alive: 20 s, or WORKER_HEARTBEAT_TTL_S (5-300; the test suite kills
    workers and waits this out, so it asks for less)."""
    configured = os.environ.get("WORKER_HEARTBEAT_TTL_S", "").strip()
    return int(configured) if configured.isdigit() and 5 <= int(configured) <= 300 else 20


HEARTBEAT_TTL_S = heartbeat_ttl_s()  # a worker silent this long is dead
HEARTBEAT_EVERY_S = HEARTBEAT_TTL_S / 4
OWNERS = "dynabench:job-owners"  # hash: job id -> worker id
ALIVE = "dynabench:worker-alive:"
# A job marked in progress with no recorded owner (the worker died between arq's mark and our
# record) is an orphan once its mark is this old.
UNOWNED_GRACE_S = 60


def new_worker_id() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


async def start_heartbeat(ctx: dict) -> None:
    ctx["worker_id"] = worker_id = new_worker_id()
    redis = ctx["redis"]
    await redis.set(ALIVE + worker_id, b"1", ex=HEARTBEAT_TTL_S)

    async def beat() -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_EVERY_S)
            try:
                await redis.set(ALIVE + worker_id, b"1", ex=HEARTBEAT_TTL_S)
            except (RedisError, OSError) as exc:  # Redis restarting: arq itself will notice too
                log.warning("worker heartbeat failed: %s", exc)

    ctx["heartbeat"] = asyncio.ensure_future(beat())


async def stop_heartbeat(ctx: dict) -> None:
    task = ctx.get("heartbeat")
    if task is not None:
        task.cancel()
        with contextlib.suppress(BaseException):
            await task
    if "worker_id" in ctx:
        with contextlib.suppress(RedisError, OSError):
            await ctx["redis"].delete(ALIVE + ctx["worker_id"])


async def job_started(ctx: dict) -> None:
    with contextlib.suppress(RedisError, OSError):
        await ctx["redis"].hset(OWNERS, ctx["job_id"], ctx["worker_id"])


async def job_ended(ctx: dict) -> None:
    with contextlib.suppress(RedisError, OSError):
        await ctx["redis"].hdel(OWNERS, ctx["job_id"])


async def recover_orphaned_jobs(ctx: dict, in_progress_timeout_s: float) -> list[str]:
    """Release the jobs of workers whose heartbeat expired; returns their ids."""
    redis = ctx["redis"]
    owners = {k.decode(): v.decode() for k, v in (await redis.hgetall(OWNERS)).items()}
    marked = [key.decode()[len(in_progress_key_prefix) :] async for key in redis.scan_iter(match=in_progress_key_prefix + "*")]
    released = []
    for job_id in marked:
        owner = owners.get(job_id)
        if owner is not None:
            orphan = not await redis.exists(ALIVE + owner)
        else:
            # arq keeps a finished cron's mark for keep_cronjob_progress (60 s) so that no other worker runs the same
            # scheduled run again: that mark is not an orphan (a dead job's mark that short expires by itself).
            remaining_ms = await redis.pttl(in_progress_key_prefix + job_id)
            orphan = keep_cronjob_progress * 1000 < remaining_ms < (in_progress_timeout_s - UNOWNED_GRACE_S) * 1000
        if orphan:
            await redis.delete(in_progress_key_prefix + job_id)
            released.append(job_id)
    stale = [job_id for job_id in owners if job_id not in marked or job_id in released]
    if stale:
        await redis.hdel(OWNERS, *stale)
    if released:
        log.warning("released %d job(s) of dead workers to run again: %s", len(released), ", ".join(released))
    return released
