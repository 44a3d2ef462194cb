"""How close can any Python API get to raw Triton? The floor under bench/fooling_check.py's goal.

    .venv/bin/python bench/api_floor.py [--requests 600] [--levels 1,8,32] [--model-repository DIR]

Starts the stack (bench/common.py) and, beside the API, a bare ASGI app under the same uvicorn (bench/floor_app.py:
no framework, no GraphQL, no authentication, no rate limit). Then, in alternating blocks of the same real
sentences at each concurrency, times four paths to the same model:

1. raw Triton: tritonclient's asyncio client straight to Triton (the fooling check's baseline);
2. floor (hop): one HTTP hop through the bare app, which calls Triton with the same client and answers the label;
3. floor (hop + insert): the same, plus one INSERT … RETURNING into PostgreSQL (its own commit) before answering;
4. createExample: the platform's GraphQL mutation (authenticated, rate limited, quota, fooling, insert, events).

The ratios of (2) and (3) to (1) are what no amount of work inside the platform's resolvers can beat on this
machine: the cost of one more process, one more HTTP exchange and one durable write on the same CPUs.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import time
import urllib.request
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiohttp
from tritonclient.http.aio import InferenceServerClient

from bench.common import (
    HEADER,
    ROOT,
    Measurement,
    annotator_on_sentiment,
    raw_infer,
    real_sentences,
    start_stack,
    statement_tensor,
)
from bench.fooling_check import BLOCKS, CREATE, MODEL, Run, run_concurrently
from server.runtime import free_port


def start_floor(env: dict) -> tuple[subprocess.Popen, str]:
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "bench.floor_app:app", "--host", "127.0.0.1", "--port", str(port)],
        cwd=ROOT,
        env={**os.environ, "TRITON_URL": env["TRITON_URL"], "DATABASE_URL": env["DATABASE_URL"]},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            request = urllib.request.Request(url, data=b'{"text": "warm up"}', method="POST")
            urllib.request.urlopen(request, timeout=5).read()
            return process, url
        except OSError:
            if process.poll() is not None:
                raise SystemExit("the floor app exited; run it by hand to see why") from None
            time.sleep(0.3)
    process.kill()
    raise SystemExit(f"the floor app did not answer at {url}")


async def bench(stack, floor_url: str, requests: int, levels: list[int]) -> list[list[Measurement]]:
    sentences = real_sentences(requests + 50)
    triton = InferenceServerClient(stack.env["TRITON_URL"], conn_limit=64)
    http = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=64), timeout=aiohttp.ClientTimeout(total=60))

    async def post(url: str, body: dict, headers: dict | None = None) -> tuple[int, dict]:
        async with http.post(url, json=body, headers=headers) as response:
            return response.status, await response.json()

    graphql = f"{stack.api_url}/graphql"
    headers, round_id, context_id = await annotator_on_sentiment(post, graphql, "bench-floor")

    async def raw(item) -> bool:
        return (await raw_infer(triton, MODEL, [statement_tensor(item[0])])).as_numpy("label") is not None

    async def hop(item) -> bool:
        status, body = await post(floor_url, {"text": item[0]})
        return status == 200 and "label" in body

    async def hop_insert(item) -> bool:
        status, body = await post(floor_url, {"text": item[0], "store": True})
        return status == 200 and "id" in body

    async def create(item) -> bool:
        variables = {
            "i": {
                "roundId": round_id,
                "contextId": context_id,
                "fields": {"statement": item[0]},
                "label": item[1],
                "clientId": str(uuid.uuid4()),
            }
        }
        status, body = await post(graphql, {"query": CREATE, "variables": variables}, headers)
        return status == 200 and body["data"]["createExample"].get("verdict") in ("FOOLED", "NOT_FOOLED")

    paths = [("raw Triton", raw), ("floor (hop)", hop), ("floor (hop + insert)", hop_insert), ("createExample", create)]
    for _, call in paths:  # warm up: model, pools, caches
        await run_concurrently(4, sentences[:40], call)
    results = []
    for concurrency in levels:
        runs = [Run() for _ in paths]
        items = sentences[50 : 50 + requests]
        size = max(1, requests // BLOCKS)
        for number, start in enumerate(range(0, requests, size)):
            block = items[start : start + size]
            order = list(range(len(paths)))
            if number % 2:  # alternate the order, so a slow minute falls on every path alike
                order.reverse()
            for index in order:
                runs[index].add(*await run_concurrently(concurrency, block, paths[index][1]))
        results.append(
            [Measurement(name, concurrency, run.latencies, run.wall, run.errors) for (name, _), run in zip(paths, runs)]
        )
    await http.close()
    await triton.close()
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=600, help="requests per concurrency level and path")
    parser.add_argument("--levels", default="1,8,32")
    parser.add_argument("--profile", choices=["fast", "full"], default="full")
    parser.add_argument("--model-repository", type=Path, default=None)
    args = parser.parse_args()
    stack = start_stack(args.model_repository, args.profile)
    floor = None
    try:
        floor, floor_url = start_floor(stack.env)
        results = asyncio.run(bench(stack, floor_url, args.requests, [int(x) for x in args.levels.split(",")]))
    finally:
        if floor is not None:
            floor.terminate()
            floor.wait(timeout=30)
        stack.stop()
    print(f"\nModel: {MODEL}, {args.requests} requests per row and path, alternating blocks, 1 API process\n")
    print(HEADER)
    for level in results:
        for measurement in level:
            print(measurement.row())
    print("\n| c | path | p50 ratio (to raw) | throughput ratio (to raw) |\n|---|---|---|---|")
    for raw, *others in results:
        for measurement in others:
            print(
                f"| {raw.concurrency} | {measurement.name} | {measurement.p50 / raw.p50:.2f} | "
                f"{measurement.throughput / raw.throughput:.2f} |"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
