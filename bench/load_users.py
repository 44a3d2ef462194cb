"""The simulated users of bench/load.py: the GraphQL operations they send, a client that times each call and
counts refusals and errors (a :class:`Recorder`), the live subscriptions each holds open, and the annotator's and
validator's loops."""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import time
import uuid
from collections import Counter, defaultdict
from typing import Any

import aiohttp
import websockets

from bench.load_tail import Span

CONTEXT = "query($r: ID!) { nextContext(roundId: $r) { id } }"
CREATE = """mutation($i: CreateExampleInput!) { createExample(input: $i) { __typename
  ... on ExampleSubmitted { verdict example { id } } ... on Error { code message } } }"""
RETRACT = "mutation($e: ID!) { retractExample(exampleId: $e) { __typename ... on Error { code message } } }"
FLAG = 'mutation($e: ID!) { flagExample(exampleId: $e, reason: "offensive") { __typename ... on Error { code message } } }'
MINE = "{ myExamples(first: 20) { edges { node { id status fooled } } pageInfo { hasNextPage endCursor } } }"
MY_STATS = '{ myStats(taskCode: "sentiment") { submitted fooled verifiedFooled verifiedMer validationsDone } }'
ROUND = "query($r: ID!) { node(id: $r) { ... on Round { totalCollected totalFooled totalValidated mer vmer } } }"
NEXT = "query($r: ID!) { nextExamplesToValidate(roundId: $r, first: 5) { id input modelOutput } }"
VOTE = """mutation($e: ID!, $l: ValidationLabel!) { validateExample(exampleId: $e, label: $l) { __typename
  ... on Error { code message } } }"""
USERS = (
    '{ userLeaderboard(taskCode: "sentiment", first: 20) { rank user { username } verifiedFooled verifiedMer validationsDone } }'
)
MODELS = '{ leaderboard(taskCode: "sentiment") { edges { node { rank dynascore model { name } } } totalCount } }'
TO_VALIDATE = "query($r: ID!) { examplesToValidate(roundId: $r, first: 20) { edges { node { id } } pageInfo { endCursor } } }"
SUB_ROUND = "subscription($r: ID!) { roundStats(roundId: $r) { totalCollected totalFooled totalValidated } }"
SUB_QUEUE = "subscription($r: ID!) { examplesToValidate(roundId: $r) { added { id } removedIds reset } }"


class Recorder:
    def __init__(self) -> None:
        self.latencies: dict[str, list[float]] = defaultdict(list)
        self.errors: Counter[str] = Counter()
        self.refusals: Counter[str] = Counter()
        self.error_samples: list[str] = []
        self.messages: Counter[str] = Counter()
        self.subscription_errors = 0
        self.subscriptions_alive = 0
        self.wall = 0.0
        self.cpu: dict[str, float] = {}
        self.raw_triton: dict = {}
        self.streams: Any = None  # bench.generative_stream.Streams of the chatters' replies
        self.verdicts: Counter[str] = Counter()
        # How many calls of each operation were in flight as each one started (itself included): the concurrency
        # the raw Triton baseline is measured at.
        self.in_flight: Counter[str] = Counter()
        self.in_flight_samples: dict[str, list[int]] = defaultdict(list)
        self.loop_lag_ms: list[float] = []  # how late the load client's own event loop woke a 10 ms sleep
        self.loop_lag_at: list[tuple[float, float]] = []  # (seconds since the run began, ms late) of each wake
        self.run_started: float | None = None  # time.perf_counter() when the users started
        self.spans: list[Span] = []  # every timed request of the run (bench/load_tail.py)
        self.triton_probes: list[Span] = []  # raw Triton calls sent during the run (--probe-triton)
        self.inside_api = ""  # bench/api_histograms.py's summary of the run

    def error(self, op: str, what: str) -> None:
        self.errors[op] += 1
        if len(self.error_samples) < 10:
            self.error_samples.append(f"{op}: {what[:300]}")


class Client:
    def __init__(self, urls: list[str], recorder: Recorder) -> None:
        # Idle connections are dropped before uvicorn's 5 s keep-alive ends: else a request sent as
        # the server closes the connection is reset (a client bug, not an API error).
        self.http = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=0, keepalive_timeout=4), timeout=aiohttp.ClientTimeout(total=60)
        )
        self.urls = itertools.cycle([f"{u}/graphql" for u in urls])
        self.recorder = recorder

    async def call(
        self,
        op: str,
        query: str,
        variables: dict | None = None,
        token: str | None = None,
        ok: tuple[str, ...] = (),
        refusable: tuple[str, ...] = (),
    ) -> dict | None:
        """The `data` of a successful call, else None (counted as a refusal or an error)."""
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        recorder = self.recorder
        recorder.in_flight[op] += 1
        recorder.in_flight_samples[op].append(recorder.in_flight[op])
        started = time.perf_counter()
        try:
            async with self.http.post(
                next(self.urls), json={"query": query, "variables": variables or {}}, headers=headers
            ) as response:
                body = await response.json(content_type=None)
                status = response.status
        except (TimeoutError, aiohttp.ClientError, json.JSONDecodeError) as exc:
            self.recorder.error(op, repr(exc))
            return None
        finally:
            recorder.in_flight[op] -= 1
        ended = time.perf_counter()
        self.recorder.latencies[op].append((ended - started) * 1000)
        if recorder.run_started is not None:
            recorder.spans.append(Span(started - recorder.run_started, ended - recorder.run_started, op))
        if status != 200 or body.get("errors"):
            self.recorder.error(op, f"HTTP {status} {body.get('errors')}")
            return None
        data = body["data"]
        result = next(iter(data.values()))
        if ok and isinstance(result, dict) and result.get("__typename") not in ok:  # an expected refusal, or an error
            if result.get("message") in refusable:
                self.recorder.refusals[f"{op}: {result['message']}"] += 1
            else:
                self.recorder.error(op, json.dumps(result))
            return None
        return data


async def subscribe(url: str, token: str, query: str, round_id: str, kind: str, recorder: Recorder, ready: asyncio.Event) -> None:
    try:
        async with websockets.connect(
            url, subprotocols=["graphql-transport-ws"], max_queue=None, open_timeout=60, ping_interval=None
        ) as ws:
            await ws.send(json.dumps({"type": "connection_init", "payload": {"Authorization": f"Bearer {token}"}}))
            assert json.loads(await ws.recv())["type"] == "connection_ack"
            await ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": {"query": query, "variables": {"r": round_id}}}))
            while True:
                message = json.loads(await ws.recv())
                if message["type"] == "ping":
                    await ws.send(json.dumps({"type": "pong"}))
                elif message["type"] == "next" and not message["payload"].get("errors"):
                    recorder.messages[kind] += 1
                    ready.set()
                elif message["type"] != "pong":
                    recorder.subscription_errors += 1
                    recorder.error(f"subscription {kind}", json.dumps(message))
                    return
    except asyncio.CancelledError:
        raise
    except Exception as exc:  # noqa: BLE001 — any lost subscription is an error of the run
        recorder.subscription_errors += 1
        recorder.error(f"subscription {kind}", repr(exc))
    finally:
        ready.set()


async def annotator(client: Client, token: str, round_id: str, sentences, deadline: float, think) -> None:
    mine: list[str] = []
    while time.monotonic() < deadline:
        data = await client.call("nextContext", CONTEXT, {"r": round_id}, token)
        await asyncio.sleep(think())
        if data is None:
            continue
        sentence, label = random.choice(sentences)
        variables = {
            "i": {
                "roundId": round_id,
                "contextId": data["nextContext"]["id"],
                "fields": {"statement": sentence},
                "label": label,
                "clientId": str(uuid.uuid4()),
                "timeSpentMs": 2000.0,
            }
        }
        created = await client.call("createExample", CREATE, variables, token, ok=("ExampleSubmitted",))
        if created:
            mine.append(created["createExample"]["example"]["id"])
            client.recorder.verdicts[created["createExample"]["verdict"]] += 1
        roll = random.random()
        if roll < 0.04 and mine:
            await client.call(
                "retractExample", RETRACT, {"e": mine.pop(random.randrange(len(mine)))}, token, ok=("ExampleChanged",)
            )
        elif roll < 0.06 and mine:
            await client.call("flagExample", FLAG, {"e": random.choice(mine)}, token, ok=("ExampleChanged",))
        elif roll < 0.10:
            await client.call("myExamples", MINE, None, token)
        elif roll < 0.13:
            await client.call("myStats", MY_STATS, None, token)
        elif roll < 0.16:
            await client.call("round counters", ROUND, {"r": round_id}, token)


async def validator(client: Client, token: str, round_id: str, deadline: float, think) -> None:
    while time.monotonic() < deadline:
        data = await client.call("nextExamplesToValidate", NEXT, {"r": round_id}, token)
        batch = data["nextExamplesToValidate"] if data else []
        if not batch:
            await asyncio.sleep(think())
        for example in batch:
            await asyncio.sleep(think())
            if time.monotonic() >= deadline:
                break
            label = random.choices(["CORRECT", "INCORRECT", "FLAGGED"], [0.8, 0.15, 0.05])[0]
            # The author may have retracted it meanwhile: a refusal the validator's client expects.
            await client.call(
                "validateExample",
                VOTE,
                {"e": example["id"], "l": label},
                token,
                ok=("ExampleValidated",),
                refusable=("This example was retracted by its author.",),
            )
        roll = random.random()
        if roll < 0.06:
            await client.call("userLeaderboard", USERS, None, token)
        elif roll < 0.10:
            await client.call("leaderboard", MODELS, None, token)
        elif roll < 0.13:
            await client.call("examplesToValidate", TO_VALIDATE, {"r": round_id}, token)


async def chatter(api_url: str, token: str, deadline: float, think, streams, recorder: Recorder) -> None:
    """Someone chatting with the demo generative target (`chat_demo`): a message, its reply streamed to the end over
    a websocket held open, a pause, again (bench/generative_stream.py's client; TTFT and tokens/s into `streams`)."""
    from bench.generative_stream import PROMPTS, ApiClient

    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=300)) as session:
        headers = {"Authorization": f"Bearer {token}"}

        async def gql(query: str, variables: dict | None = None) -> dict | None:
            async with session.post(
                api_url + "/graphql", json={"query": query, "variables": variables or {}}, headers=headers
            ) as r:
                body = await r.json(content_type=None)
            if body.get("errors"):
                recorder.error("chat setup", json.dumps(body["errors"]))
                return None
            return body["data"]

        task = await gql('{ task(code: "chat_demo") { currentRound { id } } }')
        if not task or not task["task"]:
            recorder.error("chat setup", "no chat_demo task (the generative demo model is not in the repository)")
            return
        round_id = task["task"]["currentRound"]["id"]
        client = ApiClient(api_url, token)
        await client.open(session)
        serial = itertools.count()
        try:
            while time.monotonic() < deadline:
                context = await gql("query($r: ID!) { nextContext(roundId: $r) { id } }", {"r": round_id})
                if context:
                    errors = streams.errors
                    started = time.perf_counter()
                    await client.stream(round_id, context["nextContext"]["id"], random.choice(PROMPTS), streams, next(serial))
                    recorder.latencies["chat (whole reply)"].append((time.perf_counter() - started) * 1000)
                    if streams.errors > errors:
                        recorder.error("chat (whole reply)", "a reply that did not end DONE")
                await asyncio.sleep(think())
        finally:
            await client.ws.close()
