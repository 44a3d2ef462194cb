"""explainPrediction cost: milliseconds per explanation vs one plain inference of the same model and sentence.

    .venv/bin/python bench/explain_latency.py [--sentences 60] [--profile fast|full] [--model-repository DIR]

Starts its own stack, then for real sentences (DynaSent round 1 when ../shared/data is present) alternates (a) one
raw tritonclient call of sentiment_minilm with the sentence and (b) explainPrediction of the same sentence through
GraphQL (the sentence plus one copy per word left out, in one batched call), one request at a time. Prints p50/p99
for both, the ratio, and the rows per explanation (words + 1).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiohttp
import numpy as np
from tritonclient.http.aio import InferenceServerClient, InferInput

from bench.common import HEADER, ROOT, Measurement, real_sentences, start_stack

MODEL = "sentiment_minilm"
EXPLAIN = """query($r: ID!, $f: JSON!) { explainPrediction(roundId: $r, fields: $f) { modelCalls tokens { text } } }"""


async def bench(stack, n: int) -> tuple[Measurement, Measurement, list[int]]:
    sentences = [s for s, _ in real_sentences(n + 10, seed=7)]
    http = aiohttp.ClientSession()
    triton = InferenceServerClient(stack.env["TRITON_URL"])
    graphql = f"{stack.api_url}/graphql"

    async def post(body, headers=None):
        async with http.post(graphql, json=body, headers=headers or {}) as response:
            return await response.json()

    signup = await post(
        {
            "query": 'mutation { signUp(input: {username: "bench-explain", password: "bench password"}) { ... on AuthPayload { token } } }'
        }
    )
    headers = {"Authorization": f"Bearer {signup['data']['signUp']['token']}"}
    round_id = (await post({"query": '{ task(code: "sentiment") { currentRound { id } } }'}))["data"]["task"]["currentRound"][
        "id"
    ]

    async def raw(sentence: str) -> float:
        tensor = InferInput("statement", [1, 1], "BYTES")
        tensor.set_data_from_numpy(np.array([[sentence.encode()]], dtype=np.object_))
        started = time.perf_counter()
        await triton.infer(MODEL, [tensor])
        return (time.perf_counter() - started) * 1000

    rows: list[int] = []

    async def explain(sentence: str) -> float:
        started = time.perf_counter()
        body = await post({"query": EXPLAIN, "variables": {"r": round_id, "f": {"statement": sentence}}}, headers)
        elapsed = (time.perf_counter() - started) * 1000
        answer = body["data"]["explainPrediction"]
        assert answer["modelCalls"] == 1, body
        rows.append(len(answer["tokens"]) + 1)
        return elapsed

    for sentence in sentences[:10]:  # warm-up: model, pools, caches
        await raw(sentence)
        await explain(sentence)
    rows.clear()
    raw_ms, explain_ms = [], []
    wall_raw = wall_explain = 0.0
    for i, sentence in enumerate(sentences[10:]):
        # Alternate which goes first: a slow moment on the shared machine falls on both alike.
        order = [(raw, raw_ms), (explain, explain_ms)] if i % 2 == 0 else [(explain, explain_ms), (raw, raw_ms)]
        for call, into in order:
            into.append(await call(sentence))
        wall_raw, wall_explain = sum(raw_ms) / 1000, sum(explain_ms) / 1000
    await http.close()
    await triton.close()
    return (
        Measurement("raw Triton, 1 row", 1, raw_ms, wall_raw),
        Measurement("explainPrediction", 1, explain_ms, wall_explain),
        rows,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sentences", type=int, default=60)
    parser.add_argument("--profile", choices=["fast", "full"], default="full")
    parser.add_argument("--model-repository", type=Path, default=None)
    args = parser.parse_args()
    repository = args.model_repository or ROOT / ".dynabench-bench-cache" / f"models-{args.profile}"
    stack = start_stack(repository if args.model_repository else None, args.profile)
    try:
        raw, explain, rows = asyncio.run(bench(stack, args.sentences))
    finally:
        stack.stop()
    print(f"\nModel: {MODEL} ({args.profile} profile), {len(raw.latencies_ms)} sentences, one request at a time\n")
    print(HEADER)
    print(raw.row())
    print(explain.row())
    print(
        f"\nrows per explanation: mean {statistics.fmean(rows):.1f}, max {max(rows)} (one batched call each); "
        f"p50 ratio explain/raw {explain.p50 / raw.p50:.1f}x, per row {explain.p50 / statistics.median(rows):.1f} ms"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
