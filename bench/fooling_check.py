"""createExample latency and throughput vs raw Triton calls of the same model with the same inputs.

    .venv/bin/python bench/fooling_check.py [--requests 200] [--profile fast|full] [--model-repository DIR]

Starts its own stack (PostgreSQL, Redis, Triton, worker, API) on free ports, then for concurrency
1, 8 and 32 runs the same sentences (DynaSent round 1, real annotator data, when ../shared/data is
present) through (a) tritonclient's asyncio client straight to Triton and (b) the GraphQL
createExample mutation, in alternating blocks, and prints p50/p99/throughput and the ratios. Then the
same for the same model uploaded as a researcher's submission and made a round's target (served by
the sandboxed submissions Triton through its relay): raw calls through the relay vs createExample.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import sys
import time
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

MODEL = "sentiment_minilm"
CREATE = """mutation($i: CreateExampleInput!) { createExample(input: $i) {
  __typename ... on ExampleSubmitted { verdict } ... on Error { message } } }"""


BLOCKS = 5  # per concurrency level and path


class Run:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.wall = 0.0
        self.errors = 0

    def add(self, latencies: list[float], wall: float, errors: int) -> None:
        self.latencies += latencies
        self.wall += wall
        self.errors += errors


async def run_concurrently(concurrency: int, items: list, call) -> tuple[list[float], float, int]:
    latencies: list[float] = []
    errors = 0
    queue = list(enumerate(items))

    async def worker():
        nonlocal errors
        while queue:
            _, item = queue.pop()
            started = time.perf_counter()
            ok = await call(item)
            latencies.append((time.perf_counter() - started) * 1000)
            errors += 0 if ok else 1

    started = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    return latencies, time.perf_counter() - started, errors


def submission_round(stack, model_repository: Path) -> tuple[str, str]:
    """The built sentiment model uploaded as a researcher's submission, evaluated, published, and made the target
    of a new sentiment round (createRound with its modelId): returns (its Triton name, the round's id)."""
    import io
    import json
    import tarfile

    import httpx

    http = httpx.Client(base_url=stack.api_url, timeout=600)

    def gql(query: str, variables: dict | None = None, token: str | None = None) -> dict:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        body = http.post("/graphql", json={"query": query, "variables": variables or {}}, headers=headers).json()
        assert not body.get("errors"), body
        return body["data"]

    login = gql(
        'mutation($p: String!) { logIn(input: {username: "admin", password: $p}) { ... on AuthPayload { token } } }',
        {"p": stack.secrets["admin_password"]},
    )
    admin = login["logIn"]["token"]
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        tar.add(model_repository / MODEL, arcname=MODEL)
    upload = """mutation($t: String!, $n: String!, $a: Upload!) { uploadModel(taskCode: $t, name: $n, archive: $a) {
        __typename ... on ModelUploaded { model { id } } ... on Error { message } } }"""
    operations = json.dumps({"query": upload, "variables": {"t": "sentiment", "n": "bench-submission", "a": None}})
    response = http.post(
        "/graphql",
        data={"operations": operations, "map": json.dumps({"0": ["variables.a"]})},
        files={"0": ("model.tar.gz", buffer.getvalue(), "application/octet-stream")},
        headers={"Authorization": f"Bearer {admin}"},
    ).json()
    model_id = response["data"]["uploadModel"]["model"]["id"]
    status = "uploaded"
    for _ in range(1200):  # a guard: the deploy and evaluation jobs end it
        status = gql("query($m: ID!) { node(id: $m) { ... on Model { status } } }", {"m": model_id}, admin)["node"]["status"]
        if status in ("evaluated", "failed"):
            break
        time.sleep(1)
    assert status == "evaluated", status
    gql("mutation($m: ID!) { publishModel(modelId: $m) { __typename } }", {"m": model_id}, admin)
    opened = gql(
        """mutation($m: ID!) { createRound(input: {taskCode: "sentiment", targetModels: [{modelId: $m}]}) {
            __typename ... on RoundCreated { round { id targetModels { name } } } ... on Error { message } } }""",
        {"m": model_id},
        admin,
    )["createRound"]
    assert opened["__typename"] == "RoundCreated", opened
    round_id = opened["round"]["id"]
    gql(
        "mutation($i: AddContextsInput!) { addContexts(input: $i) { __typename } }",
        {"i": {"roundId": round_id, "contexts": [{"fields": {"context": "Write a review sentence."}}]}},
        admin,
    )
    http.close()
    return opened["round"]["targetModels"][0]["name"], round_id


async def bench(stack, requests: int, levels: list[int], target: str = "builtin", submission: tuple[str, str] | None = None):
    sentences = real_sentences(requests * 2 + 50)
    if submission is None:
        model = MODEL
        triton = InferenceServerClient(stack.env["TRITON_URL"], conn_limit=64)
    else:
        from server.core.triton_clients import triton_client

        model = submission[0]
        triton = triton_client(stack.env["TRITON_SUBMISSIONS_URL"])
    # The same HTTP client library on both paths (tritonclient's asyncio client is aiohttp), so the
    # client's own CPU cost, on the same two cores, is alike.
    http = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=64), timeout=aiohttp.ClientTimeout(total=60))

    async def post(url: str, body: dict, headers: dict | None = None) -> tuple[int, dict]:
        async with http.post(url, json=body, headers=headers) as response:
            return response.status, await response.json()

    # Requests alternate over the API processes (compose runs two replicas behind the proxy by default).
    urls = itertools.cycle([f"{url}/graphql" for url in stack.api_urls])
    graphql = f"{stack.api_url}/graphql"
    headers, round_id, context_id = await annotator_on_sentiment(post, graphql, f"bench-{target}")

    async def raw(item) -> bool:
        result = await raw_infer(triton, model, [statement_tensor(item[0])])
        return result.as_numpy("label") is not None

    async def api(item) -> bool:
        variables = {
            "i": {
                "roundId": round_id,
                "contextId": context_id,
                "fields": {"statement": item[0]},
                "label": item[1],
                "clientId": str(uuid.uuid4()),
            }
        }
        status, body = await post(next(urls), {"query": CREATE, "variables": variables}, headers)
        return status == 200 and body["data"]["createExample"].get("verdict") in ("FOOLED", "NOT_FOOLED")

    # Warm up both paths (model, connection pools, caches).
    await run_concurrently(4, sentences[:40], raw)
    await run_concurrently(4, sentences[:40], api)
    results = []
    for concurrency in levels:
        # Alternating blocks (raw, API, API, raw, ...) rather than all raw then all API: the machine is
        # shared, and a slow minute must fall on both paths alike.
        raw_run, api_run = Run(), Run()
        items = sentences[50 : 50 + requests]
        blocks = [items[i : i + max(1, requests // BLOCKS)] for i in range(0, requests, max(1, requests // BLOCKS))]
        for number, block in enumerate(blocks):
            order = [(raw_run, raw), (api_run, api)] if number % 2 == 0 else [(api_run, api), (raw_run, raw)]
            for run, call in order:
                run.add(*await run_concurrently(concurrency, block, call))
        where = "sandbox relay" if submission else "http.aio"
        results.append(
            (
                Measurement(f"raw Triton ({where})", concurrency, raw_run.latencies, raw_run.wall, raw_run.errors),
                Measurement(f"createExample ({target})", concurrency, api_run.latencies, api_run.wall, api_run.errors),
            )
        )
    await http.close()
    await triton.close()
    return results


def print_table(title: str, results) -> None:
    print(f"\n{title}\n")
    print(HEADER)
    for raw, api in results:
        print(raw.row())
        print(api.row())
    print("\n| c | p50 ratio (API/raw) | throughput ratio (API/raw) |\n|---|---|---|")
    for raw, api in results:
        print(f"| {raw.concurrency} | {api.p50 / raw.p50:.2f} | {api.throughput / raw.throughput:.2f} |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=200, help="requests per concurrency level and path")
    parser.add_argument("--levels", default="1,8,32")
    parser.add_argument("--profile", choices=["fast", "full"], default="full")
    parser.add_argument("--model-repository", type=Path, default=None)
    parser.add_argument("--api-processes", type=int, default=1, help="API processes; requests alternate over them")
    parser.add_argument("--no-submission", action="store_true", help="skip the submission-as-target measurement")
    args = parser.parse_args()
    repository = args.model_repository or ROOT / ".dynabench-bench-cache" / f"models-{args.profile}"
    stack = start_stack(repository if args.model_repository else None, args.profile, api_processes=args.api_processes)
    levels = [int(x) for x in args.levels.split(",")]
    try:
        builtin = asyncio.run(bench(stack, args.requests, levels))
        submission = None
        if not args.no_submission:
            # The same model as a researcher's submission in the loop: served by the sandboxed Triton.
            submission_results = asyncio.run(
                bench(stack, args.requests, levels, "submission", submission_round(stack, repository))
            )
            submission = submission_results
    finally:
        stack.stop()
    print(f"\nModel: {MODEL} ({args.profile} profile), {args.requests} requests per row, {args.api_processes} API process(es)")
    print_table("Built-in target (target Triton)", builtin)
    if submission:
        print_table("The same model as a submission in the loop (sandboxed submissions Triton, 1 CPU quota)", submission)
    return 0


if __name__ == "__main__":
    sys.exit(main())
