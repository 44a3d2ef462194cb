"""arq: the originating request id travels with each job; job metrics; the worker's /metrics server.

The request id rides in the serialized job itself (an extra `rid` key next to arq's own keys), so
no job function has to accept a new argument and a worker without this code still reads the job.
`serialize_job` adds it from the contextvar when the API (or a job) enqueues; the worker's
`deserialize_job` runs inside arq's per-job task just before the job starts and puts it back in
the contextvar (with the job's function name), so arq's own log lines for the job and everything
the job logs carry them.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import pickle
import time
from collections.abc import Awaitable, Callable
from typing import Any

from arq.worker import Retry

from server.observability.logs import job_id_var, job_var, request_id_var
from server.observability.metrics import JOB_DURATION, JOBS

log = logging.getLogger("dynabench.worker")
OUTCOMES = ("ok", "error", "retry", "cancelled")


def serialize_job(data: dict[str, Any]) -> bytes:
    request_id = request_id_var.get()
    if request_id is not None and "f" in data and "s" not in data:  # a job definition, not a job result
        data = {**data, "rid": request_id}
    return pickle.dumps(data)


def deserialize_job(raw: bytes) -> Any:
    data = pickle.loads(raw)
    if isinstance(data, dict) and "f" in data and "s" not in data:
        request_id_var.set(data.get("rid"))
        job_var.set(data["f"])
    return data


def instrument(function: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    """Wraps an arq job: duration and outcome metrics, and the job's name and id for log lines."""
    name = function.__qualname__
    duration = JOB_DURATION.labels(name)
    counters = {outcome: JOBS.labels(name, outcome) for outcome in OUTCOMES}

    @functools.wraps(function)
    async def run(ctx: dict, *args: Any, **kwargs: Any) -> Any:
        job_var.set(name)
        job_id_var.set(ctx.get("job_id"))
        outcome = "error"
        started = time.perf_counter()
        try:
            result = await function(ctx, *args, **kwargs)
            outcome = "ok"
            return result
        except Retry:
            outcome = "retry"
            raise
        except asyncio.CancelledError:  # the job's timeout or a worker shutting down; arq runs it again
            outcome = "cancelled"
            raise
        finally:
            duration.observe(time.perf_counter() - started)
            counters[outcome].inc()

    return run


class QueueDepth:
    """`dynabench_job_queue_depth{state=ready|deferred}`: arq's queue, read from Redis at scrape time."""

    def __init__(self, redis_url: str, queue: str) -> None:
        self.redis_url = redis_url
        self.queue = queue
        self._client = None

    def describe(self):
        return []

    def collect(self):
        from prometheus_client.core import GaugeMetricFamily
        from redis import Redis

        family = GaugeMetricFamily(
            "dynabench_job_queue_depth", "Jobs in the arq queue: ready to run now, or deferred.", labels=["state"]
        )
        try:
            if self._client is None:
                self._client = Redis.from_url(self.redis_url, socket_timeout=2, socket_connect_timeout=2)
            now_ms = int(time.time() * 1000)
            with self._client.pipeline(transaction=False) as pipe:
                pipe.zcount(self.queue, "-inf", now_ms)
                pipe.zcard(self.queue)
                ready, total = pipe.execute()
        except Exception as exc:  # noqa: BLE001 — a scrape must not fail because Redis is away
            log.warning("queue depth unavailable: %s", type(exc).__name__)
            return
        family.add_metric(["ready"], ready)
        family.add_metric(["deferred"], total - ready)
        yield family


def start_worker_metrics(host: str, port: int, redis_url: str, queue: str) -> Any:
    """Serves the worker's metrics on host:port in a thread; returns the server (or None if the port is taken)."""
    from prometheus_client import REGISTRY, start_http_server

    try:
        server, _thread = start_http_server(port, addr=host)
    except OSError as exc:
        log.warning("worker metrics not served on %s:%s: %s", host, port, exc)
        return None
    REGISTRY.register(QueueDepth(redis_url, queue))
    log.info("worker metrics on http://%s:%s/metrics", host, port)
    return server
