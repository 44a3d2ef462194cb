"""The evaluation job's speed vs raw batched Triton inference of the same model over the same rows,
and the time from upload to first score.

    .venv/bin/python bench/evaluation.py [--rows 1000] [--profile fast]
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import sys
import tarfile
import time
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import httpx
import numpy as np
from tritonclient.http.aio import InferInput

from bench.common import real_sentences, start_stack
from server.core.triton_clients import triton_client


async def gql(http, query, variables=None, token=None, files=None):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    if files:
        operations = json.dumps({"query": query, "variables": variables})
        response = await http.post(
            "/graphql",
            data={"operations": operations, "map": json.dumps({"0": [f"variables.{files[0]}"]})},
            files={"0": ("upload", files[1], "application/octet-stream")},
            headers=headers,
        )
    else:
        response = await http.post("/graphql", json={"query": query, "variables": variables or {}}, headers=headers)
    body = response.json()
    assert not body.get("errors"), body
    return body["data"]


async def raw_batched(url: str, model: str, rows: list[str], batch: int = 32, parallel: int = 2) -> float:
    client = triton_client(url, conn_timeout=600)  # the sandbox relay: a unix socket
    semaphore = asyncio.Semaphore(parallel)

    async def run(chunk):
        async with semaphore:
            tensor = InferInput("statement", [len(chunk), 1], "BYTES")
            tensor.set_data_from_numpy(np.array([[t.encode()] for t in chunk], dtype=np.object_))
            await client.infer(model, [tensor])

    started = time.perf_counter()
    await asyncio.gather(*(run(rows[i : i + batch]) for i in range(0, len(rows), batch)))
    elapsed = time.perf_counter() - started
    await client.close()
    return len(rows) / elapsed


async def bench(stack, rows: int, model_dir: Path) -> dict:
    http = httpx.AsyncClient(base_url=stack.api_url, timeout=600)
    admin = (
        await gql(
            http,
            'mutation($p: String!) { logIn(input: {username: "admin", password: $p}) { ... on AuthPayload { token } } }',
            {"p": stack.secrets["admin_password"]},
        )
    )["logIn"]["token"]
    sentences = real_sentences(rows)
    jsonl = "\n".join(
        json.dumps({"uid": str(i), "statement": s, "label": label}) for i, (s, label) in enumerate(sentences)
    ).encode()
    await gql(
        http,
        'mutation($f: Upload!) { createDataset(taskCode: "sentiment", name: "bench", file: $f) { __typename } }',
        {"f": None},
        admin,
        files=("f", jsonl),
    )
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        tar.add(model_dir, arcname=model_dir.name)
    uploaded_at = time.perf_counter()
    data = await gql(
        http,
        'mutation($a: Upload!) { uploadModel(taskCode: "sentiment", name: "bench", archive: $a) { ... on ModelUploaded { model { id } } } }',
        {"a": None},
        admin,
        files=("a", buffer.getvalue()),
    )
    model_id = data["uploadModel"]["model"]["id"]
    query = (
        "query($m: ID!) { node(id: $m) { ... on Model { status statusLog { at status message } scores { perf throughput } } } }"
    )
    while True:
        model = (await gql(http, query, {"m": model_id}, admin))["node"]
        if model["scores"] or model["status"] == "failed":
            break
        await asyncio.sleep(0.2)
    first_score = time.perf_counter() - uploaded_at
    while model["status"] not in ("evaluated", "failed"):
        await asyncio.sleep(0.5)
        model = (await gql(http, query, {"m": model_id}, admin))["node"]
    log = model["statusLog"]
    started = next(datetime.fromisoformat(e["at"]) for e in log if e["status"] == "evaluating")
    finished = datetime.fromisoformat(log[-1]["at"])
    total_rows = (await gql(http, '{ datasets(taskCode: "sentiment") { exampleCount } }'))["datasets"][0]["exampleCount"]
    import asyncpg

    connection = await asyncpg.connect(stack.env["DATABASE_URL"])
    records = await connection.fetch("SELECT fields::text AS f FROM dataset_examples")
    texts = [json.loads(r["f"])["statement"] for r in records]
    all_rows = len(texts)
    triton_name = await connection.fetchval("SELECT triton_name FROM models")
    await connection.close()
    raw = await raw_batched(stack.env["TRITON_SUBMISSIONS_URL"], triton_name, texts)
    await http.aclose()
    job_rate = all_rows / (finished - started).total_seconds()
    return {
        "rows": total_rows,
        "all_rows": all_rows,
        "first_score_s": first_score,
        "job_rate": job_rate,
        "inference_rate": model["scores"][0]["throughput"],
        "raw_rate": raw,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=1000)
    parser.add_argument("--profile", choices=["fast", "full"], default="fast")
    args = parser.parse_args()
    from bench.common import ROOT

    stack = start_stack(None, args.profile)
    try:
        model_dir = ROOT / ".dynabench-bench-cache" / f"models-{args.profile}" / "sentiment_minilm"
        result = asyncio.run(bench(stack, args.rows, model_dir))
    finally:
        stack.stop()
    print(
        f"\nSentiment model ({args.profile} profile); dataset: {result['rows']} DynaSent rows + perturbed copies = {result['all_rows']} rows\n"
    )
    print("| what | rows/s | ratio to raw |\n|---|---|---|")
    print(f"| raw batched Triton (32 per request, 2 in flight) | {result['raw_rate']:.0f} | 1.00 |")
    print(
        f"| evaluation job, inference on originals (Score.throughput) | {result['inference_rate']:.0f} | {result['inference_rate'] / result['raw_rate']:.2f} |"
    )
    print(
        f"| evaluation job, whole job incl. perturbed copies, metrics, storage | {result['job_rate']:.0f} | {result['job_rate'] / result['raw_rate']:.2f} |"
    )
    print(
        f"\nUpload to first score: {result['first_score_s']:.1f} s (archive checks, deploy into Triton, smoke test, evaluation)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
