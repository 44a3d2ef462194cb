"""Streaming a generative target's reply: through the API (sendMessage + the replyStream subscription) vs raw Triton
streaming (the generate extension's SSE) of the same model, prompts and parameters, in the same run.

    .venv/bin/python bench/generative_stream.py [--requests 32] [--profile fast|full] [--model-repository DIR]

Starts its own stack (PostgreSQL, Redis, Triton, worker, API) with the demo generative task (`chat_demo`, target
`generative_demo`, built by build-models), then for 1, 8 and 32 concurrent streams sends the same prompts through
(a) aiohttp straight to Triton's `generate_stream` and (b) the API: a sendMessage over HTTP, then replyStream on a
websocket opened (and acknowledged) beforehand, in alternating blocks. Time to first token (TTFT) is from sending
the request to the first piece of text; tokens/s is each stream's tokens after its first piece (counted with the
model's own tokenizer: the API may join pieces that arrive together) over the time from its first piece to its end; CPU is the machine's over each block. Goal (issue #30): TTFT ≤ raw + 20 ms at p50,
tokens/s ≥ 0.9 × raw.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
import uuid
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiohttp
import psutil
import websockets

from bench.common import percentile, start_stack

BLOCKS = 3
PROMPTS = [
    "What is the capital of France?",
    "Tell me about the river that flows through Cairo.",
    "How many legs does a spider have?",
    "Write one sentence about the sea.",
    "Who wrote the play about a prince of Denmark?",
    "What colour is the sky at noon?",
    "Give me a tip for baking bread.",
    "Is the moon bigger than the earth?",
]
SEND = """mutation($i: SendMessageInput!) { sendMessage(input: $i) { __typename
  ... on MessageSent { turn { id } } ... on Error { code message } } }"""
STREAM = "subscription($t: ID!) { replyStream(turnId: $t) { text done status } }"


@dataclass
class Streams:
    ttft_ms: list[float] = field(default_factory=list)
    rates: list[float] = field(default_factory=list)  # tokens per second of each stream
    tokens: int = 0
    wall_s: float = 0.0
    cpu: list[float] = field(default_factory=list)
    errors: int = 0

    def add(self, ttft: float, first_text: str, text: str, seconds: float) -> None:
        self.ttft_ms.append(ttft)
        total, first = count_tokens(text), count_tokens(first_text)
        self.tokens += total
        if total > first and seconds > 0:
            self.rates.append((total - first) / seconds)


async def raw_stream(session: aiohttp.ClientSession, url: str, prompt: str, sampling: str, out: Streams) -> None:
    started = time.perf_counter()
    first, texts = None, []
    body = {"text_input": prompt, "sampling_parameters": sampling, "stream": True}
    async with session.post(url, json=body) as response:
        if response.status != 200:
            out.errors += 1
            return
        async for line in response.content:
            if not line.startswith(b"data:"):
                continue
            if text := json.loads(line[5:]).get("text_output"):
                texts.append(text)
                if first is None:
                    first = time.perf_counter()
    if first is None:
        out.errors += 1
        return
    out.add((first - started) * 1000, texts[0], "".join(texts), time.perf_counter() - first)


class ApiClient:
    """One annotator: its HTTP session, and a websocket connected and acknowledged before the clock starts."""

    def __init__(self, api_url: str, token: str) -> None:
        self.api_url, self.token = api_url, token
        self.ws = None

    async def open(self, session: aiohttp.ClientSession) -> None:
        self.session = session
        url = self.api_url.replace("http://", "ws://") + "/graphql"
        self.ws = await websockets.connect(url, subprotocols=["graphql-transport-ws"], max_size=None)
        await self.ws.send(json.dumps({"type": "connection_init", "payload": {"Authorization": f"Bearer {self.token}"}}))
        assert json.loads(await self.ws.recv())["type"] == "connection_ack"

    async def stream(self, round_id: str, context_id: str, prompt: str, out: Streams, serial: int) -> None:
        started = time.perf_counter()
        variables = {"i": {"roundId": round_id, "contextId": context_id, "clientId": str(uuid.uuid4()), "message": prompt}}
        headers = {"Authorization": f"Bearer {self.token}"}
        async with self.session.post(
            self.api_url + "/graphql", json={"query": SEND, "variables": variables}, headers=headers
        ) as r:
            sent = (await r.json())["data"]["sendMessage"]
        if sent["__typename"] != "MessageSent":
            out.errors += 1
            return
        sid = str(serial)
        await self.ws.send(
            json.dumps({"id": sid, "type": "subscribe", "payload": {"query": STREAM, "variables": {"t": sent["turn"]["id"]}}})
        )
        first, texts, status = None, [], ""
        while True:
            message = json.loads(await self.ws.recv())
            if message["type"] == "ping":
                await self.ws.send(json.dumps({"type": "pong"}))
                continue
            if message.get("id") != sid or message["type"] != "next":
                if message["type"] in ("complete", "error") and message.get("id") == sid:
                    break
                continue
            chunk = message["payload"]["data"]["replyStream"]
            if chunk["text"]:
                texts.append(chunk["text"])
                if first is None:
                    first = time.perf_counter()
            if chunk["done"]:
                status = chunk["status"]
        if first is None or status != "DONE":
            out.errors += 1
            return
        out.add((first - started) * 1000, texts[0], "".join(texts), time.perf_counter() - first)


async def block(concurrency: int, jobs: list, out: Streams) -> None:
    queue = list(jobs)
    psutil.cpu_percent(None)
    started = time.perf_counter()

    async def worker(index: int) -> None:
        while queue:
            await queue.pop()(index)

    await asyncio.gather(*(worker(i) for i in range(concurrency)))
    out.wall_s += time.perf_counter() - started
    out.cpu.append(psutil.cpu_percent(None) / 100 * psutil.cpu_count())


async def _raw_job(session, url, prompt, sampling, out, _worker: int) -> None:
    await raw_stream(session, url, prompt, sampling, out)


async def _api_job(clients, round_id, context_id, prompt, out, serial, worker: int) -> None:
    await clients[worker].stream(round_id, context_id, prompt, out, serial)


TOKENIZER: list = []


def count_tokens(text: str) -> int:
    return len(TOKENIZER[0](text, add_special_tokens=False)["input_ids"])


def row(name: str, c: int, s: Streams) -> str:
    rate = statistics.median(s.rates) if s.rates else 0.0
    return (
        f"| {name:<5} | {c:>3} | {len(s.ttft_ms):>4} | {percentile(s.ttft_ms, 50):8.1f} | {percentile(s.ttft_ms, 99):8.1f} | "
        f"{rate:9.1f} | {s.tokens / s.wall_s:10.1f} | {statistics.fmean(s.cpu):4.2f} | {s.errors:>3} |"
    )


async def measure(stack, requests: int) -> None:
    from server.annotation.conversations.transcript import messages, params_of
    from server.generation.prompt import render_plain
    from server.tasks.builtin import GENERATIVE_DEMO
    from server.tasks.config import TaskConfig

    config = TaskConfig.model_validate(GENERATIVE_DEMO["config"])
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=600)) as session:

        async def gql(query: str, variables: dict | None = None, token: str | None = None) -> dict:
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            async with session.post(
                stack.api_url + "/graphql", json={"query": query, "variables": variables or {}}, headers=headers
            ) as r:
                return (await r.json())["data"]

        tokens = []
        for i in range(32):
            data = await gql(
                "mutation($i: SignUpInput!) { signUp(input: $i) { ... on AuthPayload { token } } }",
                {"i": {"username": f"bench_chat_{uuid.uuid4().hex[:8]}_{i}", "password": "correct horse battery"}},
            )
            tokens.append(data["signUp"]["token"])
        task = await gql('{ task(code: "chat_demo") { currentRound { id } } }')
        round_id = task["task"]["currentRound"]["id"]
        context = (await gql("query($r: ID!) { nextContext(roundId: $r) { id fields } }", {"r": round_id}, tokens[0]))[
            "nextContext"
        ]
        params = params_of(config)
        triton = "http://" + stack.env["TRITON_URL"] + "/v2/models/generative_demo/generate_stream"
        prompts = [
            render_plain(messages(config, context["fields"], [{"message": p, "status": "generating", "reply": ""}]))
            for p in PROMPTS
        ]
        clients = [ApiClient(stack.api_url, t) for t in tokens]
        for client in clients:
            await client.open(session)
        print("| path  |   c |    n | TTFT p50 | TTFT p99 | tok/s p50 | tok/s total |  CPU | err |")
        print("|-------|-----|------|----------|----------|-----------|-------------|------|-----|")
        serial = iter(range(10**9))
        for concurrency in (1, 8, 32):
            raw, api = Streams(), Streams()
            n = max(requests, concurrency)
            for _ in range(BLOCKS):
                sampling = params.sampling_parameters()
                raw_jobs = [partial(_raw_job, session, triton, prompts[k % len(prompts)], sampling, raw) for k in range(n)]
                api_jobs = [
                    partial(_api_job, clients, round_id, context["id"], PROMPTS[k % len(PROMPTS)], api, next(serial))
                    for k in range(n)
                ]
                await block(concurrency, raw_jobs, raw)
                await block(concurrency, api_jobs, api)
            print(row("raw", concurrency, raw))
            print(row("api", concurrency, api))
            ttft_gap = percentile(api.ttft_ms, 50) - percentile(raw.ttft_ms, 50)
            rate_ratio = (statistics.median(api.rates) / statistics.median(raw.rates)) if raw.rates and api.rates else 0.0
            print(
                f"|  c={concurrency}: TTFT p50 api − raw = {ttft_gap:+.1f} ms (goal ≤ +20); tok/s api/raw = {rate_ratio:.2f} (goal ≥ 0.9) |"
            )
        for client in clients:
            await client.ws.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=32, help="streams per block and path (at least the concurrency)")
    parser.add_argument("--profile", default="fast", choices=["fast", "full"])
    parser.add_argument("--model-repository", type=Path, default=None)
    args = parser.parse_args()
    stack = start_stack(args.model_repository, args.profile)
    from transformers import AutoTokenizer

    from server.modelbuild.generative import hf_directory

    TOKENIZER.append(AutoTokenizer.from_pretrained(str(hf_directory(stack.model_repository))))
    try:
        asyncio.run(measure(stack, args.requests))
    finally:
        stack.stop()


if __name__ == "__main__":
    main()
