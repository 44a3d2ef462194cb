"""Shared helpers for the benchmarks: a local stack, real sentences, latency tables."""

from __future__ import annotations

import json
import os
import random
import statistics
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED_DATA = Path(os.environ.get("DYNABENCH_SHARED_DATA") or ROOT.parent / "shared" / "data")


def real_sentences(n: int, seed: int = 0) -> list[tuple[str, str]]:
    """(sentence, gold label) pairs from DynaSent round 1 (real annotator data) when present."""
    path = SHARED_DATA / "dynasent" / "dynasent-v1.1-round01-yelp-dev.jsonl"
    if path.exists():
        rows = [json.loads(line) for line in path.open()]
        rows = [r for r in rows if r.get("gold_label") in ("positive", "negative", "neutral")]
        picked = random.Random(seed).sample(rows, min(n, len(rows)))
        return [(r["sentence"], r["gold_label"]) for r in picked]
    words = "the food service staff place was great awful fine slow friendly cold warm not really".split()
    rng = random.Random(seed)
    return [(" ".join(rng.choices(words, k=12)), rng.choice(["positive", "negative", "neutral"])) for _ in range(n)]


def judged_outputs() -> list:
    """The outputs createExample asks a classifier for (server/core/inference.py), so that a raw baseline asks the model
    for the same work (left to its default, tritonclient asks for every output, the 384-float embedding included)."""
    from tritonclient.http.aio import InferRequestedOutput

    from server.core.inference import CLASSIFICATION_OUTPUTS

    return [InferRequestedOutput(name) for name in CLASSIFICATION_OUTPUTS]


async def raw_infer(client, model: str, inputs: list):
    """A raw Triton call that asks for what the platform asks for: the same outputs, an uncompressed response (aiohttp
    otherwise offers gzip and Triton spends CPU compressing each answer; server/core/inference.py asks for identity)."""
    from server.core.inference import PLAIN_RESPONSE

    return await client.infer(model, inputs, outputs=judged_outputs(), headers=PLAIN_RESPONSE)


ROUND_AND_CONTEXT = '{ task(code: "sentiment") { currentRound { id contexts(first: 1) { edges { node { id } } } } } }'


async def annotator_on_sentiment(post, graphql: str, username: str) -> tuple[dict[str, str], str, str]:
    """A new account's auth headers, the sentiment task's current round id and one of its context ids (`post(url,
    body, headers)` answers (status, json))."""
    signup = f'mutation {{ signUp(input: {{username: "{username}", password: "bench password"}}) {{ ... on AuthPayload {{ token }} }} }}'
    _, answer = await post(graphql, {"query": signup})
    _, ids = await post(graphql, {"query": ROUND_AND_CONTEXT})
    current = ids["data"]["task"]["currentRound"]
    headers = {"Authorization": f"Bearer {answer['data']['signUp']['token']}"}
    return headers, current["id"], current["contexts"]["edges"][0]["node"]["id"]


def statement_tensor(text: str):
    """The sentiment models' one input, for a raw Triton call."""
    import numpy as np
    from tritonclient.http.aio import InferInput

    tensor = InferInput("statement", [1, 1], "BYTES")
    tensor.set_data_from_numpy(np.array([[text.encode()]], dtype=np.object_))
    return tensor


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


@dataclass
class Measurement:
    name: str
    concurrency: int
    latencies_ms: list[float]
    wall_s: float
    errors: int = 0

    @property
    def p50(self) -> float:
        return percentile(self.latencies_ms, 50)

    @property
    def p99(self) -> float:
        return percentile(self.latencies_ms, 99)

    @property
    def throughput(self) -> float:
        return len(self.latencies_ms) / self.wall_s

    def row(self) -> str:
        return (
            f"| {self.name:<24} | {self.concurrency:>3} | {len(self.latencies_ms):>5} | {self.p50:8.1f} | "
            f"{self.p99:8.1f} | {statistics.fmean(self.latencies_ms):8.1f} | {self.throughput:8.1f} | {self.errors:>3} |"
        )


HEADER = (
    "| what                     |   c |     n | p50 (ms) | p99 (ms) | mean(ms) |    req/s | err |\n"
    "|--------------------------|-----|-------|----------|----------|----------|----------|-----|"
)


def start_stack(model_repository: Path | None, profile: str, **kwargs):
    """A LocalStack in a temporary directory serving `model_repository` (built with `profile` if None)."""
    from server.cli.local_stack import LocalStack

    if model_repository is None:
        from server.modelbuild import build_models

        model_repository = ROOT / ".dynabench-bench-cache" / f"models-{profile}"
        build_models(model_repository, profile=profile)
    base = Path(tempfile.mkdtemp(prefix="dynabench-bench-"))
    # A benchmark is many users on one loopback address: the rate limits (server/core/rate_limits.py) would
    # measure themselves. Raised as in tests/conftest.py; the API processes inherit os.environ.
    for name in (
        "SIGNUPS_PER_HOUR_PER_ADDRESS",
        "TASKS_PER_DAY",
        "TASKS_PER_DAY_PER_ADDRESS",
        "UPLOADS_PER_DAY",
        "UPLOADS_PER_DAY_PER_ADDRESS",
        "SUBMISSIONS_PER_MINUTE",
        "SUBMISSIONS_PER_MINUTE_PER_ADDRESS",
        "EXPLANATIONS_PER_MINUTE",
        "EXPLANATIONS_PER_MINUTE_PER_ADDRESS",
        "LOGIN_FAILURES_PER_ADDRESS",
    ):
        os.environ.setdefault(name, "1000000000")
    stack = LocalStack(base, model_repository=model_repository, durable=False, **kwargs)
    return stack.start()
