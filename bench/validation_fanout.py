"""Live fan-out of validation events over websockets, across two API processes; aggregation throughput.

    .venv/bin/python bench/validation_fanout.py [--subscribers 200,500] [--votes 20] [--profile fast]

For each subscriber count, half the graphql-transport-ws clients connect to API process A and half
to B, all subscribed to `roundStats` of one round. Validators vote through A one at a time; each vote
is aggregated by the worker, which publishes through Redis, and every subscriber receives the new
counters. We report, per subscriber and vote, the time from the vote's commit (its HTTP reply) to
the message's arrival: p50/p99. The subscribers are bare sockets noting each message as its bytes are read
(bench/raw_ws.py), so that the benchmark's own client, on the same cores, is not what it measures; `--client
websockets` uses the websockets library instead (arrival after it parsed the message). Then votes are cast as fast as possible and we report how many
votes per second the aggregation job settles.
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import json
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import httpx
import websockets

from bench import raw_ws
from bench.common import percentile, real_sentences, start_stack
from server.tasks.builtin import BUILTIN_TASKS

SUB = "subscription($r: ID!) { roundStats(roundId: $r) { totalValidated } }"
VOTE = "mutation($e: ID!) { validateExample(exampleId: $e, label: CORRECT) { __typename } }"


async def gql(http, query, variables=None, token=None):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    response = await http.post("/graphql", json={"query": query, "variables": variables or {}}, headers=headers)
    body = response.json()
    assert not body.get("errors"), body
    return body["data"]


async def sign_up(http, name):
    data = await gql(
        http,
        'mutation($u: String!) { signUp(input: {username: $u, password: "bench password"}) { ... on AuthPayload { token } } }',
        {"u": name},
    )
    return data["signUp"]["token"]


async def setup(http, admin_token, n_examples):
    """A task that validates every example (no need to fool the model), with n_examples to vote on."""
    config = copy.deepcopy(BUILTIN_TASKS[0]["config"])
    config["validation"] = {"num_matching_validations": 3, "validate_non_fooling": True}
    code = f"fanout_{uuid.uuid4().hex[:6]}"
    await gql(
        http,
        "mutation($i: CreateTaskInput!) { createTask(input: $i) { __typename } }",
        {"i": {"code": code, "name": "fan-out", "config": config}},
        admin_token,
    )
    round_id = (
        await gql(
            http,
            "mutation($i: CreateRoundInput!) { createRound(input: $i) { ... on RoundCreated { round { id } } } }",
            {"i": {"taskCode": code, "targetModels": [{"name": "sentiment_minilm"}]}},
            admin_token,
        )
    )["createRound"]["round"]["id"]
    await gql(
        http,
        "mutation($i: AddContextsInput!) { addContexts(input: $i) { __typename } }",
        {"i": {"roundId": round_id, "contexts": [{"fields": {"context": "Write a review."}}]}},
        admin_token,
    )
    context_id = (await gql(http, "query($r: ID!) { nextContext(roundId: $r) { id } }", {"r": round_id}))["nextContext"]["id"]
    author = await sign_up(http, f"author_{uuid.uuid4().hex[:6]}")
    ids = []
    for sentence, label in real_sentences(n_examples):
        data = await gql(
            http,
            "mutation($i: CreateExampleInput!) { createExample(input: $i) { ... on ExampleSubmitted { example { id } } } }",
            {
                "i": {
                    "roundId": round_id,
                    "contextId": context_id,
                    "fields": {"statement": sentence},
                    "label": label,
                    "clientId": str(uuid.uuid4()),
                }
            },
            author,
        )
        ids.append(data["createExample"]["example"]["id"])
    return round_id, ids


async def subscriber(url, round_id, ready: asyncio.Event, arrivals: list, expected: int, connected: list):
    async with websockets.connect(url, subprotocols=["graphql-transport-ws"], max_queue=None, open_timeout=60) as ws:
        await ws.send(json.dumps({"type": "connection_init", "payload": {}}))
        await ws.recv()
        await ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": {"query": SUB, "variables": {"r": round_id}}}))
        await ws.recv()  # the current state
        connected.append(1)
        await ready.wait()
        while len(arrivals) < expected:
            message = json.loads(await ws.recv())
            if message["type"] == "next":
                arrivals.append(time.perf_counter())


async def fanout(stack, subscribers: int, votes: int, client: str = "raw") -> tuple[list[float], int]:
    http = httpx.AsyncClient(base_url=stack.api_urls[0], timeout=60)
    admin = (
        await gql(
            http,
            'mutation($p: String!) { logIn(input: {username: "admin", password: $p}) { ... on AuthPayload { token } } }',
            {"p": stack.secrets["admin_password"]},
        )
    )["logIn"]["token"]
    round_id, example_ids = await setup(http, admin, votes)
    voters = [await sign_up(http, f"voter_{uuid.uuid4().hex[:8]}") for _ in range(1)]
    urls = [u.replace("http://", "ws://") + "/graphql" for u in stack.api_urls]
    arrivals: list[list[float]] = [[] for _ in range(subscribers)]
    if client == "raw":
        live, close = await _raw_subscribers(urls, round_id, arrivals)
    else:
        live, close = await _websockets_subscribers(urls, round_id, arrivals, votes)
    committed = []
    for example_id in example_ids[:votes]:
        await gql(http, VOTE, {"e": example_id}, voters[0])
        committed.append(time.perf_counter())
        # Wait until every subscriber has this vote's update, so updates map to votes one to one.
        deadline = time.perf_counter() + 30
        while any(len(arrivals[i]) < len(committed) for i in live()) and time.perf_counter() < deadline:
            await asyncio.sleep(0.005)
    connected = live()
    missing = sum(votes - len(arrivals[i]) for i in connected) + (subscribers - len(connected)) * votes
    await close()
    latencies = [(arrivals[i][v] - committed[v]) * 1000 for i in connected for v in range(min(len(arrivals[i]), votes))]
    await http.aclose()
    return latencies, missing


async def _raw_subscribers(urls, round_id, arrivals):
    """bench/raw_ws.py subscribers: arrival noted as the bytes are read."""
    subscribers = await asyncio.gather(
        *(raw_ws.subscribe(urls[i % len(urls)], SUB, {"r": round_id}, arrivals[i].append) for i in range(len(arrivals))),
        return_exceptions=True,
    )
    failed = [s for s in subscribers if isinstance(s, BaseException)]
    if failed:
        print(f"{len(failed)} of {len(arrivals)} subscribers could not connect: {failed[0]!r}", file=sys.stderr)

    def live():
        return [i for i, s in enumerate(subscribers) if not isinstance(s, BaseException) and not s.closed.done()]

    async def close():
        for s in subscribers:
            if not isinstance(s, BaseException):
                s.close()

    return live, close


async def _websockets_subscribers(urls, round_id, arrivals, votes):
    """The `websockets` library's client (arrival noted after it parsed the frame and json.loads the message)."""
    ready = asyncio.Event()
    connected: list[int] = []
    tasks = [
        asyncio.create_task(subscriber(urls[i % len(urls)], round_id, ready, arrivals[i], votes, connected))
        for i in range(len(arrivals))
    ]
    deadline = time.perf_counter() + 120
    while len(connected) + sum(t.done() for t in tasks) < len(tasks) and time.perf_counter() < deadline:
        await asyncio.sleep(0.1)
    failed = [t for t in tasks if t.done() and t.exception() is not None]
    if failed:
        print(f"{len(failed)} of {len(tasks)} subscribers could not connect: {failed[0].exception()!r}", file=sys.stderr)
    ready.set()

    def live():
        return [i for i, t in enumerate(tasks) if not t.done() or (not t.cancelled() and t.exception() is None)]

    async def close():
        died = [t.exception() for t in tasks if t.done() and not t.cancelled() and t.exception() is not None]
        if died:
            print(f"{len(died)} subscribers lost their connection during the run, first: {died[0]!r}", file=sys.stderr)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    return live, close


async def aggregation_throughput(stack, n_examples: int) -> tuple[int, float]:
    http = httpx.AsyncClient(base_url=stack.api_urls[0], timeout=60, limits=httpx.Limits(max_connections=32))
    admin = (
        await gql(
            http,
            'mutation($p: String!) { logIn(input: {username: "admin", password: $p}) { ... on AuthPayload { token } } }',
            {"p": stack.secrets["admin_password"]},
        )
    )["logIn"]["token"]
    round_id, example_ids = await setup(http, admin, n_examples)
    voters = [await sign_up(http, f"agg_{uuid.uuid4().hex[:8]}") for _ in range(3)]
    started = time.perf_counter()
    await asyncio.gather(*(gql(http, VOTE, {"e": e}, v) for e in example_ids for v in voters))
    query = "query($r: ID!) { node(id: $r) { ... on Round { totalValidated } } }"
    while (await gql(http, query, {"r": round_id}))["node"]["totalValidated"] < n_examples:
        await asyncio.sleep(0.05)
    elapsed = time.perf_counter() - started
    await http.aclose()
    return len(example_ids) * len(voters), elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--subscribers", default="200,500")
    parser.add_argument("--votes", type=int, default=20)
    parser.add_argument("--aggregation-examples", type=int, default=100)
    parser.add_argument("--profile", choices=["fast", "full"], default="fast")
    parser.add_argument("--model-repository", type=Path, default=None)
    parser.add_argument(
        "--client",
        choices=["raw", "websockets"],
        default="raw",
        help="subscribers: bare asyncio sockets (bench/raw_ws.py; arrival as read) or the websockets library",
    )
    args = parser.parse_args()
    stack = start_stack(args.model_repository, args.profile, api_processes=2)
    rows = []
    try:
        for n in [int(x) for x in args.subscribers.split(",")]:
            latencies, missing = asyncio.run(fanout(stack, n, args.votes, args.client))
            rows.append((n, latencies, missing))
        votes, seconds = asyncio.run(aggregation_throughput(stack, args.aggregation_examples))
    finally:
        stack.stop()
    print(
        f"\nVote commit → roundStats message at each subscriber (2 API processes, 1 worker, Redis fan-out; {args.client} client)\n"
    )
    print("| subscribers | votes | messages | p50 (ms) | p99 (ms) | max (ms) | missing |\n|---|---|---|---|---|---|---|")
    for n, latencies, missing in rows:
        print(
            f"| {n} | {args.votes} | {len(latencies)} | {percentile(latencies, 50):.1f} | {percentile(latencies, 99):.1f} | {max(latencies):.1f} | {missing} |"
        )
    print(
        f"\nAggregation: {votes} votes settled in {seconds:.2f} s = {votes / seconds:.0f} votes/s (through validateExample + worker)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
