"""What the observability code adds per request, measured in-process (no services needed).

    .venv/bin/python bench/observability_overhead.py [--n 20000] [--rounds 5] 2>/dev/null

(a) a GraphQL operation through the real schema (`{ __typename }`: parser and validation caches
warm, no resolver I/O) without and with the metrics extension; (b) an ASGI request through a
trivial app without and with the request-id/HTTP-counter wrapper (browser-like headers, with and
without a client X-Request-ID); (c) the access log (ACCESS_LOG=1, JSON lines) on top of (b);
(d) one Triton latency observation. Each case runs interleaved in several rounds; the table shows
the best round (the least disturbed by other load on the machine).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from server.core.settings import Settings
from server.graphql.schema import build_schema
from server.observability import graphql as graphql_metrics
from server.observability.http import RequestContext
from server.observability.logs import configure_logging
from server.observability.metrics import observe_triton

HEADERS = [
    (b"host", b"127.0.0.1:8000"),
    (b"user-agent", b"Mozilla/5.0 (X11; Linux x86_64)"),
    (b"accept", b"*/*"),
    (b"accept-encoding", b"gzip, deflate"),
    (b"content-type", b"application/json"),
    (b"content-length", b"212"),
    (b"authorization", b"Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl"),
    (b"origin", b"http://localhost"),
]


async def per_call_us(call, n: int) -> float:
    started = time.perf_counter()
    for _ in range(n):
        await call()
    return (time.perf_counter() - started) / n * 1e6


async def main(n: int, rounds: int) -> None:
    # One schema per process (relay's node field binds to it): toggle the extension on and off.
    schema = build_schema(Settings())
    plain_extensions = schema.extensions
    graphql_metrics.install(schema)
    metered_extensions = schema.extensions

    async def plain_operation():
        schema.extensions = plain_extensions
        return await schema.execute("{ __typename }")

    async def metered_operation():
        schema.extensions = metered_extensions
        return await schema.execute("{ __typename }")

    async def app(scope, receive, send):
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": b"{}"})

    wrapped = RequestContext(app)
    logged = RequestContext(app, log_requests=True)
    configure_logging("json")  # the access log's JSON lines go to stderr: point it at /dev/null to time them

    async def send(message):
        return None

    async def receive():
        return {"type": "http.request", "body": b""}

    def scope(headers):
        return {
            "type": "http",
            "method": "POST",
            "path": "/graphql",
            "headers": headers,
            "path_template": "/graphql",
            "client": ("127.0.0.1", 50000),
        }

    with_id = [*HEADERS, (b"x-request-id", b"client-chosen-id-123")]
    cases = {
        "graphql { __typename }": (plain_operation, metered_operation),
        "ASGI request, no X-Request-ID": (
            lambda: app(scope(HEADERS), receive, send),
            lambda: wrapped(scope(HEADERS), receive, send),
        ),
        "ASGI request, X-Request-ID": (
            lambda: app(scope(with_id), receive, send),
            lambda: wrapped(scope(with_id), receive, send),
        ),
        "ASGI request + access log": (
            lambda: wrapped(scope(HEADERS), receive, send),
            lambda: logged(scope(HEADERS), receive, send),
        ),
    }

    async def observe():
        observe_triton("sentiment_minilm", "ok", 0.004)

    best: dict[str, list[float]] = {name: [float("inf"), float("inf")] for name in cases}
    best_observe = float("inf")
    for _ in range(rounds):
        for name, (without, with_) in cases.items():
            best[name][0] = min(best[name][0], await per_call_us(without, n))
            best[name][1] = min(best[name][1], await per_call_us(with_, n))
        best_observe = min(best_observe, await per_call_us(observe, n) - await per_call_us(_noop, n))

    print("| case                          | without (µs) | with (µs) | added (µs) |")
    print("|-------------------------------|--------------|-----------|------------|")
    for name, (without, with_) in best.items():
        print(f"| {name:<29} | {without:12.2f} | {with_:9.2f} | {with_ - without:10.2f} |")
    print(f"| Triton latency observation    | {'':12} | {'':9} | {best_observe:10.2f} |")


async def _noop():
    return None


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=20000)
    parser.add_argument("--rounds", type=int, default=5)
    options = parser.parse_args()
    asyncio.run(main(options.n, options.rounds))
