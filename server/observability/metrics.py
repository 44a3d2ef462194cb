"""Prometheus metrics of the API and the workers (prometheus_client's default registry, one per process).

Every label value comes from a bounded set: operation names are checked against the schema,
model names and error codes are capped (`BoundedValues`), so a client cannot grow the number of
series. Label children are looked up once and cached in dicts: an observation costs a dict lookup
and a lock, not a `.labels()` call.
"""

from __future__ import annotations

import os
import re

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
)

OTHER = "other"

GRAPHQL_DURATION = Histogram(
    "dynabench_graphql_request_duration_seconds",
    "GraphQL queries and mutations: parse + validate + execute, by operation (named operation or top-level field).",
    ["operation_type", "operation"],
    buckets=(0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30),
)
GRAPHQL_SUBSCRIPTION_DURATION = Histogram(
    "dynabench_graphql_subscription_duration_seconds",
    "How long GraphQL subscriptions stayed open, observed when they end.",
    ["operation"],
    buckets=(1, 10, 60, 300, 900, 3600, 4 * 3600, 24 * 3600),
)
GRAPHQL_ERRORS = Counter(
    "dynabench_graphql_errors",
    "GraphQL errors returned in `errors` (not the typed Error results of mutations), by code.",
    ["code"],
)
HTTP_REQUESTS = Counter(
    "dynabench_http_requests",
    "HTTP requests by method, route template and status code.",
    ["method", "route", "status"],
)
TRITON_DURATION = Histogram(
    "dynabench_triton_request_duration_seconds",
    "Inference calls to Triton by model and outcome (ok, timeout, unavailable, error).",
    ["model", "outcome"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120, 300),
)
EVENT_LOOP_LAG = Histogram(
    "dynabench_event_loop_lag_seconds",
    "How late the API process's event loop woke a 0.1 s sleep: what every request in flight waited besides its own work.",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5),
)
OUTBOX_BATCHES = Counter("dynabench_outbox_batches", "submitExamples batches received.")
OUTBOX_ITEMS = Counter(
    "dynabench_outbox_items",
    "submitExamples items by result: new (stored now), duplicate (clientId seen before), error.",
    ["result"],
)
JOB_DURATION = Histogram(
    "dynabench_job_duration_seconds",
    "arq job run time by function (every try, whatever the outcome).",
    ["function"],
    buckets=(0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 900, 3600),
)
JOBS = Counter(
    "dynabench_jobs",
    "arq job tries by function and outcome: ok, error (raised; arq does not retry it), retry, cancelled.",
    ["function", "outcome"],
)

_SAFE = re.compile(r"[A-Za-z0-9_.:+-]{1,100}")


class BoundedValues:
    """Lets at most `cap` distinct values through; later new ones become `other`."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.seen: set[str] = set()

    def __call__(self, value: str) -> str:
        if value in self.seen:
            return value
        if len(self.seen) >= self.cap or not _SAFE.fullmatch(value):
            return OTHER
        self.seen.add(value)
        return value


_models = BoundedValues(200)
_error_codes = BoundedValues(50)
_triton_children: dict[tuple[str, str], object] = {}
_error_children: dict[str, Counter] = {}


async def watch_event_loop(tick: float = 0.1) -> None:
    """Observe EVENT_LOOP_LAG every `tick` seconds, until cancelled (the API's lifespan runs it)."""
    import asyncio
    import time

    while True:
        start = time.monotonic()
        await asyncio.sleep(tick)
        EVENT_LOOP_LAG.observe(max(0.0, time.monotonic() - start - tick))


def observe_triton(model: str, outcome: str, seconds: float) -> None:
    key = (model, outcome)
    child = _triton_children.get(key)
    if child is None:
        child = _triton_children[key] = TRITON_DURATION.labels(_models(model), outcome)
    child.observe(seconds)


def count_graphql_error(code: str) -> None:
    child = _error_children.get(code)
    if child is None:
        child = _error_children[code] = GRAPHQL_ERRORS.labels(_error_codes(code))
    child.inc()


_outbox_children = {result: OUTBOX_ITEMS.labels(result) for result in ("new", "duplicate", "error")}


def count_outbox_batch(results: list[str]) -> None:
    """`results`: one of new / duplicate / error per item of a submitExamples batch."""
    OUTBOX_BATCHES.inc()
    for result in results:
        _outbox_children[result].inc()


def render() -> tuple[bytes, str]:
    """The exposition text. With PROMETHEUS_MULTIPROC_DIR (several uvicorn processes), all of them summed."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        return generate_latest(registry), CONTENT_TYPE_LATEST
    return generate_latest(REGISTRY), CONTENT_TYPE_LATEST
