"""The whole loop on real data: v1 from seed data → DynaSent round 1 replayed as submissions and validations →
v2 retrained from the validated ones → both versions measured on data the training never saw.

    .venv/bin/python bench/retrain_loop.py [--replay 600] [--heldout-replay 200] [--test 1000] [--profile fast|full]

Everything goes through the product: createExample (submitExamples) for each replayed sentence with its gold
label as the writer's intended label, validateExample for each of its five real validators (CORRECT when the
validator's label equals the gold label, as in tests/api/test_validation_real_data.py), trainTargetModel for
v2. The held-out replay slice is submitted but never validated, so it stays out of v2's training data. Error
on DynaSent round 1 *test* (never replayed) and the fooling rate on the held-out slice are read with raw
tritonclient calls pinned to version 1 and version 2. Deterministic sampling (seeded); the numbers are
whatever they are.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import httpx
import numpy as np
from tritonclient.http.aio import InferenceServerClient, InferInput

from bench.common import ROOT, SHARED_DATA, start_stack
from bench.validation_fanout import gql, sign_up

MODEL = "sentiment_minilm"
LABELS = ("positive", "negative", "neutral")
SUBMIT = """mutation($i: [CreateExampleInput!]!) { submitExamples(inputs: $i) {
  ... on ExampleSubmitted { verdict example { id } } ... on Error { message } } }"""
VOTE = "mutation($e: ID!, $l: ValidationLabel!) { validateExample(exampleId: $e, label: $l) { __typename } }"
TRAIN = """mutation($p: TrainingProfile!) { trainTargetModel(taskCode: "sentiment", fromRounds: [1], profile: $p) {
  __typename ... on TrainingStarted { run { id } } ... on Error { message } } }"""
RUN = "query($id: ID!) { node(id: $id) { ... on TrainingRun { status modelVersion nValidated metrics } } }"


def dynasent(name: str) -> list[dict]:
    path = SHARED_DATA / "dynasent" / name
    rows = [json.loads(line) for line in path.open()]
    return [r for r in rows if r.get("gold_label") in LABELS]


async def predict(triton: InferenceServerClient, version: str, sentences: list[str]) -> list[str]:
    labels = []
    for start in range(0, len(sentences), 32):
        batch = sentences[start : start + 32]
        tensor = InferInput("statement", [len(batch), 1], "BYTES")
        tensor.set_data_from_numpy(np.array([[s.encode()] for s in batch], dtype=np.object_))
        result = await triton.infer(MODEL, [tensor], model_version=version)
        labels += [x[0].decode() for x in result.as_numpy("label")]
    return labels


def error_rate(predicted: list[str], gold: list[str]) -> float:
    return sum(p != g for p, g in zip(predicted, gold)) / len(gold)


async def replay(http, admin, rows: list[dict], validate: bool, tokens: dict[str, str]) -> tuple[int, int]:
    """Submit rows as examples of sentiment round 1; cast their real validators' votes if `validate`."""
    ids = (await gql(http, '{ task(code: "sentiment") { currentRound { id contexts(first: 1) { edges { node { id } } } } } }'))[
        "task"
    ]
    round_id, context_id = ids["currentRound"]["id"], ids["currentRound"]["contexts"]["edges"][0]["node"]["id"]
    author = tokens.setdefault("author", await sign_up(http, f"author_{uuid.uuid4().hex[:6]}"))
    fooled = votes = 0
    for start in range(0, len(rows), 50):
        batch = rows[start : start + 50]
        inputs = [
            {
                "roundId": round_id,
                "contextId": context_id,
                "fields": {"statement": r["sentence"]},
                "label": r["gold_label"],
                "clientId": str(uuid.uuid4()),
            }
            for r in batch
        ]
        results = (await gql(http, SUBMIT, {"i": inputs}, author))["submitExamples"]
        for row, result in zip(batch, results):
            if result.get("verdict") != "FOOLED":
                continue  # only fooling examples are validated (the task's config)
            fooled += 1
            if not validate:
                continue
            for label, workers in row["label_distribution"].items():
                for worker in workers:
                    token = tokens.get(worker) or tokens.setdefault(
                        worker, await sign_up(http, f"{worker}_{uuid.uuid4().hex[:4]}")
                    )
                    await gql(
                        http,
                        VOTE,
                        {"e": result["example"]["id"], "l": "CORRECT" if label == row["gold_label"] else "INCORRECT"},
                        token,
                    )
                    votes += 1
    return fooled, votes


async def loop(stack, args) -> dict:
    rng = random.Random(7)
    dev = dynasent("dynasent-v1.1-round01-yelp-dev.jsonl")
    rng.shuffle(dev)
    replayed, heldout_replay = dev[: args.replay], dev[args.replay : args.replay + args.heldout_replay]
    test = rng.sample(dynasent("dynasent-v1.1-round01-yelp-test.jsonl"), args.test)
    http = httpx.AsyncClient(base_url=stack.api_url, timeout=300)
    triton = InferenceServerClient(stack.env["TRITON_URL"])
    admin = (
        await gql(
            http,
            'mutation($p: String!) { logIn(input: {username: "admin", password: $p}) { ... on AuthPayload { token } } }',
            {"p": stack.secrets["admin_password"]},
        )
    )["logIn"]["token"]
    tokens: dict[str, str] = {}
    started = time.perf_counter()
    fooled, votes = await replay(http, admin, replayed, True, tokens)
    heldout_fooled, _ = await replay(http, admin, heldout_replay, False, tokens)
    await asyncio.sleep(3)  # let the worker aggregate the last votes (the sweeper covers anything later)
    replay_s = time.perf_counter() - started
    run = (await gql(http, TRAIN, {"p": args.profile.upper()}, admin))["trainTargetModel"]
    assert run.get("run"), run
    started = time.perf_counter()
    status = {}
    while status.get("status") not in ("published", "failed"):
        await asyncio.sleep(2)
        status = (await gql(http, RUN, {"id": run["run"]["id"]}, admin))["node"]
    train_s = time.perf_counter() - started
    assert status["status"] == "published", status
    table = {}
    for version in ("1", status["modelVersion"]):
        table[version] = {
            "test_error": error_rate(
                await predict(triton, version, [r["sentence"] for r in test]), [r["gold_label"] for r in test]
            ),
            "heldout_fooling": error_rate(
                await predict(triton, version, [r["sentence"] for r in heldout_replay]), [r["gold_label"] for r in heldout_replay]
            ),
        }
    await http.aclose()
    await triton.close()
    return {
        "table": table,
        "fooled": fooled,
        "votes": votes,
        "heldout_fooled": heldout_fooled,
        "validated": status["nValidated"],
        "metrics": status["metrics"],
        "replay_s": replay_s,
        "train_s": train_s,
        "v2": status["modelVersion"],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--replay", type=int, default=600, help="DynaSent R1 dev rows replayed and validated")
    parser.add_argument("--heldout-replay", type=int, default=200, help="further rows replayed but not validated")
    parser.add_argument("--test", type=int, default=1000, help="DynaSent R1 test rows for the error column")
    parser.add_argument("--profile", choices=["fast", "full"], default="fast")
    parser.add_argument("--model-repository", type=Path, default=None)
    args = parser.parse_args()
    repository = args.model_repository
    if repository is None:  # v2 is written next to v1: work on a copy of the cached build
        from server.modelbuild import build_models

        cache = ROOT / ".dynabench-bench-cache" / f"models-{args.profile}"
        build_models(cache, profile=args.profile)
        repository = Path(tempfile.mkdtemp(prefix="dynabench-loop-")) / "models"
        shutil.copytree(cache, repository)
    v1_meta = json.loads((repository / MODEL / "1" / "metadata.json").read_text())
    stack = start_stack(repository, args.profile)
    try:
        result = asyncio.run(loop(stack, args))
    finally:
        stack.stop()
    print(
        f"\nReplayed {args.replay} DynaSent R1 dev sentences ({result['fooled']} fooled v1; {result['votes']} real votes cast "
        f"in {result['replay_s']:.0f} s); v2 trained on seed data + {result['validated']} validated examples "
        f"({args.profile} profile, {result['train_s']:.0f} s). Held-out: {args.test} DynaSent R1 test sentences; "
        f"{args.heldout_replay} replayed-but-unvalidated sentences.\n"
    )
    print(
        "| version | error on DynaSent R1 test | fooling rate on held-out replayed slice | held-out seed accuracy |\n|---|---|---|---|"
    )
    for version, row in result["table"].items():
        seed = result["metrics"]["heldout"] if version == result["v2"] else v1_meta["heldout_accuracy"]
        print(f"| v{version} | {row['test_error']:.3f} | {row['heldout_fooling']:.3f} | {seed:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
