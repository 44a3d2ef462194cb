"""The whole loop on real data: v1 from seed data → DynaSent round 1 dev replayed as submissions and validations →
v2 retrained from every validated one → round 2 opened with v2 → a fresh replay → both versions measured on data
the training never saw.

    .venv/bin/python -m bench.retrain_loop [--quick] [--replay 3000] [--fresh 600] [--test 3600] [--r2-dev 720]
                                           [--profile fast|full] [--recipe continue|scratch] [--json out.json]

`--recipe` sets DYNABENCH_RETRAIN_RECIPE for the stack's worker (server/modelbuild/continuation.py): `continue`
(the default: from the current version, development split, steps scaled with the data) or `scratch` (the recipe
before it: from the base encoder, the profile's steps). The replay is seeded, so two runs differing only in
`--recipe` retrain on the same validated examples (the ablation of docs/design.md §4.8).

Everything goes through the product. DynaSent R1 dev is shuffled (seeded) and split: a *fresh* slice (never
replayed before round 2, never trained on) and the *replayed* rest. Each replayed sentence is written with
submitExamples in round 1 (judged by v1) with its gold label as the writer's intended label; each one that fooled
v1 gets its five real validators' votes through validateExample (CORRECT when the validator's label equals the
gold label, as in tests/api/test_validation_real_data.py). trainTargetModel then trains v2 on the seed data plus
every validated example (the run's own count is checked against round 1's validated examples), openNextRound
opens round 2 judged by v2, and the fresh slice is written there with submitExamples: v2's fooling rate is the
product's verdicts; v1's on the same sentences is read with raw tritonclient calls pinned to version 1 (the same
predicate: the model's label differs from the writer's). Errors on DynaSent R1 *test* (never replayed) and on
DynaSent R2 dev (the next round's real data) come from raw tritonclient calls pinned to each version.
Deterministic sampling (seeded); the numbers are whatever they are.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import ROOT, SHARED_DATA

MODEL = "sentiment_minilm"
LABELS = ("positive", "negative", "neutral")
R1_DEV, R1_TEST = "dynasent-v1.1-round01-yelp-dev.jsonl", "dynasent-v1.1-round01-yelp-test.jsonl"
R2_DEV = "dynasent-v1.1-round02-dynabench-dev.jsonl"
QUICK = {"replay": 300, "fresh": 100, "test": 300, "r2_dev": 240}
SUBMIT = """mutation($i: [CreateExampleInput!]!) { submitExamples(inputs: $i) {
  ... on ExampleSubmitted { verdict example { id } } ... on Error { message } } }"""
VOTE = "mutation($e: ID!, $l: ValidationLabel!) { validateExample(exampleId: $e, label: $l) { __typename } }"
TRAIN = """mutation($p: TrainingProfile!) { trainTargetModel(taskCode: "sentiment", fromRounds: [1], profile: $p) {
  __typename ... on TrainingStarted { run { id } } ... on Error { message } } }"""
RUN = """query($id: ID!) { node(id: $id) { ... on TrainingRun { status modelVersion nValidated metrics
  statusLog { message } trainingData { validatedExamples validatedRead validatedHeldOut validatedShare minDraws seedExamples steps
  validatedDev bestStep startedFrom }
  gate { passed summary heldOut { examples currentError newError difference ciLow ciHigh mcnemarP } } } } }"""
# The loop measures every version, also one the retraining gate rejects (its decision is reported beside the table).
OVERRIDE = """mutation($r: ID!) { overrideTrainingGate(runId: $r, reason: "bench/retrain_loop.py measures every version") {
  __typename ... on Error { message } } }"""
OPEN_NEXT = """mutation($v: String!) { openNextRound(taskCode: "sentiment", modelVersion: $v) {
  __typename ... on NextRoundOpened { round { id number } } ... on Error { message } } }"""
CURRENT = '{ task(code: "sentiment") { currentRound { id number totalValidated contexts(first: 1) { edges { node { id } } } } } }'
MINE = """query($r: ID!, $after: String) { myExamples(roundId: $r, first: 100, after: $after) {
  edges { node { status fooled } } pageInfo { hasNextPage endCursor } } }"""


def dynasent(name: str) -> list[dict]:
    path = SHARED_DATA / "dynasent" / name
    rows = [json.loads(line) for line in path.open()]
    return [r for r in rows if r.get("gold_label") in LABELS]


async def predict(triton, version: str, sentences: list[str]) -> list[str]:
    import numpy as np
    from tritonclient.http.aio import InferInput

    labels = []
    for start in range(0, len(sentences), 32):
        batch = sentences[start : start + 32]
        tensor = InferInput("statement", [len(batch), 1], "BYTES")
        tensor.set_data_from_numpy(np.array([[s.encode()] for s in batch], dtype=np.object_))
        result = await triton.infer(MODEL, [tensor], model_version=version)
        labels += [x[0].decode() for x in result.as_numpy("label")]
    return labels


def error_rate(predicted: list[str], gold: list[str]) -> float:
    return sum(p != g for p, g in zip(predicted, gold, strict=True)) / len(gold)


async def current_round(http) -> dict:
    from bench.validation_fanout import gql

    return (await gql(http, CURRENT))["task"]["currentRound"]


async def replay(http, rows: list[dict], validate: bool, tokens: dict[str, str]) -> tuple[int, int]:
    """Submit rows as examples of sentiment's current round; cast their real validators' votes if `validate`.
    Returns (fooled, votes cast)."""
    from bench.validation_fanout import gql, sign_up

    current = await current_round(http)
    round_id, context_id = current["id"], current["contexts"]["edges"][0]["node"]["id"]
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
        for row, result in zip(batch, results, strict=True):
            assert "verdict" in result, result
            if result["verdict"] != "FOOLED":
                continue  # only fooling examples are validated (the task's config)
            fooled += 1
            if not validate:
                continue
            for label, workers in row["label_distribution"].items():
                for worker in workers:
                    token = tokens.get(worker) or tokens.setdefault(
                        worker, await sign_up(http, f"{worker}_{uuid.uuid4().hex[:4]}")
                    )
                    verdict = "CORRECT" if label == row["gold_label"] else "INCORRECT"
                    await gql(http, VOTE, {"e": result["example"]["id"], "l": verdict}, token)
                    votes += 1
    return fooled, votes


async def wait_for_outcomes(http, token: str, round_id: str, limit_s: float = 300) -> int:
    """Until no fooled example of the round is still open (the worker aggregates votes asynchronously);
    returns how many are still open when it gives up."""
    from bench.validation_fanout import gql

    deadline = time.monotonic() + limit_s
    while True:
        still_open, after = 0, None
        while True:
            page = (await gql(http, MINE, {"r": round_id, "after": after}, token))["myExamples"]
            still_open += sum(e["node"]["fooled"] and e["node"]["status"] == "open" for e in page["edges"])
            if not page["pageInfo"]["hasNextPage"]:
                break
            after = page["pageInfo"]["endCursor"]
        if not still_open or time.monotonic() > deadline:
            return still_open
        await asyncio.sleep(2)


async def loop(stack, args) -> dict:
    import httpx
    from tritonclient.http.aio import InferenceServerClient

    from bench.validation_fanout import gql

    rng = random.Random(7)
    dev = dynasent(R1_DEV)
    rng.shuffle(dev)
    fresh, replayed = dev[: args.fresh], dev[args.fresh : args.fresh + args.replay]
    test = rng.sample(dynasent(R1_TEST), min(args.test, 3600))
    r2_dev = rng.sample(dynasent(R2_DEV), min(args.r2_dev, 720))
    http = httpx.AsyncClient(base_url=stack.api_url, timeout=300)
    triton = InferenceServerClient(stack.env["TRITON_URL"])
    login = 'mutation($p: String!) { logIn(input: {username: "admin", password: $p}) { ... on AuthPayload { token } } }'
    admin = (await gql(http, login, {"p": stack.secrets["admin_password"]}))["logIn"]["token"]
    tokens: dict[str, str] = {}

    started = wall = time.perf_counter()
    round1 = await current_round(http)
    fooled, votes = await replay(http, replayed, True, tokens)
    still_open = await wait_for_outcomes(http, tokens["author"], round1["id"])
    validated = (await current_round(http))["totalValidated"]
    replay_s = time.perf_counter() - started

    run = (await gql(http, TRAIN, {"p": args.profile.upper()}, admin))["trainTargetModel"]
    assert run.get("run"), run
    started = time.perf_counter()
    status: dict = {}
    while status.get("status") not in ("published", "rejected", "failed", "cancelled"):
        await asyncio.sleep(2)
        status = (await gql(http, RUN, {"id": run["run"]["id"]}, admin))["node"]
    train_s = time.perf_counter() - started
    assert status["status"] in ("published", "rejected"), status["statusLog"]
    gate = {**status["gate"], "status": status["status"]}
    if status["status"] == "rejected":
        overridden = (await gql(http, OVERRIDE, {"r": run["run"]["id"]}, admin))["overrideTrainingGate"]
        assert overridden["__typename"] == "TrainingGateOverridden", overridden
    v2 = status["modelVersion"]
    if not still_open:  # every outcome was in when training read them: the run trained on exactly those
        data = status["trainingData"]  # the gate's share and the development split are never trained on
        trainable = validated - data["validatedHeldOut"] - data["validatedDev"]
        assert status["nValidated"] == trainable, f"trained on {status['nValidated']} of round 1's {trainable} trainable"

    opened = (await gql(http, OPEN_NEXT, {"v": v2}, admin))["openNextRound"]
    assert opened["__typename"] == "NextRoundOpened", opened
    fresh_fooled_v2, _ = await replay(http, fresh, False, tokens)

    fresh_gold = [r["gold_label"] for r in fresh]
    table = {}
    for version in ("1", v2):
        table[version] = {
            "r1_test_error": error_rate(
                await predict(triton, version, [r["sentence"] for r in test]), [r["gold_label"] for r in test]
            ),
            "r2_dev_error": error_rate(
                await predict(triton, version, [r["sentence"] for r in r2_dev]), [r["gold_label"] for r in r2_dev]
            ),
            "fresh_fooling_raw": error_rate(await predict(triton, version, [r["sentence"] for r in fresh]), fresh_gold),
        }
    table[v2]["fresh_fooling_product"] = fresh_fooled_v2 / len(fresh)
    await http.aclose()
    await triton.close()
    return {
        "table": table,
        "replayed": len(replayed),
        "fooled": fooled,
        "votes": votes,
        "validated": validated,
        "still_open": still_open,
        "trained_on": status["nValidated"],
        "training_data": status["trainingData"],
        "metrics": status["metrics"],
        "gate": gate,
        "replay_s": round(replay_s, 1),
        "train_s": round(train_s, 1),
        "v2": v2,
        "recipe": args.recipe,
        "wall_s": round(time.perf_counter() - wall, 1),
        "sizes": {"fresh": len(fresh), "r1_test": len(test), "r2_dev": len(r2_dev)},
    }


def report(result: dict, args, v1_meta: dict) -> str:
    data = result["training_data"]
    lines = [
        f"Replayed {result['replayed']} DynaSent R1 dev sentences in round 1 ({result['fooled']} fooled v1; "
        f"{result['votes']} real votes cast; {result['validated']} validated, {result['still_open']} still open; "
        f"{result['replay_s']:.0f} s). v2 ({args.profile} profile, recipe {args.recipe}, {result['train_s']:.0f} s "
        f"from the request to the gate's decision) started from {data['startedFrom']} and trained on "
        f"{data['seedExamples']} seed rows + {result['trained_on']} validated examples (of {data['validatedRead']} "
        f"read; {data['validatedHeldOut']} held out for the gate, {data['validatedDev']} as the development split; "
        f"{data['validatedShare']:.0%} of the draws, each drawn at least {data['minDraws']} time(s), "
        f"{data['steps']} steps, kept step {data['bestStep'] if data['bestStep'] is not None else data['steps']}). "
        f"Fresh replay: {result['sizes']['fresh']} R1 dev sentences never replayed before, "
        f"written in round 2 (judged by v2). Errors: {result['sizes']['r1_test']} R1 test sentences, "
        f"{result['sizes']['r2_dev']} R2 dev sentences.",
        "",
        "| version | error on DynaSent R1 test | error on DynaSent R2 dev | fooling rate of the fresh replay "
        "| seed held-out accuracy |",
        "|---|---|---|---|---|",
    ]
    for version, row in result["table"].items():
        seed = result["metrics"]["heldout"] if version == result["v2"] else v1_meta["heldout_accuracy"]
        fooling = f"{row['fresh_fooling_raw']:.3f}"
        if "fresh_fooling_product" in row:
            fooling = f"{row['fresh_fooling_product']:.3f} (submitExamples; raw calls: {row['fresh_fooling_raw']:.3f})"
        lines.append(f"| v{version} | {row['r1_test_error']:.3f} | {row['r2_dev_error']:.3f} | {fooling} | {seed:.3f} |")
    gate = result["gate"]
    lines += [
        "",
        f"Retraining gate: {gate['status']} (overridden by the bench to measure v2 anyway)"
        if gate["status"] == "rejected"
        else f"Retraining gate: {gate['status']}",
        gate["summary"],
    ]
    return "\n".join(lines)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench.retrain_loop", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help=f"a small run: {QUICK} unless given")
    parser.add_argument("--replay", type=int, default=None, help="R1 dev rows replayed in round 1 and validated (3000)")
    parser.add_argument("--fresh", type=int, default=None, help="R1 dev rows held back for the fresh replay in round 2 (600)")
    parser.add_argument("--test", type=int, default=None, help="R1 test rows for the error column (3600: all)")
    parser.add_argument("--r2-dev", type=int, default=None, help="R2 dev rows for the error column (720: all)")
    parser.add_argument("--profile", choices=["fast", "full"], default="fast")
    parser.add_argument("--recipe", choices=["continue", "scratch"], default="continue", help="the retraining recipe")
    parser.add_argument("--model-repository", type=Path, default=None, help="a built repository to copy (default: build)")
    parser.add_argument("--json", type=Path, default=None, help="also write the results here")
    args = parser.parse_args(argv)
    defaults = QUICK if args.quick else {"replay": 3000, "fresh": 600, "test": 3600, "r2_dev": 720}
    for name, value in defaults.items():
        if getattr(args, name) is None:
            setattr(args, name, value)
    if args.fresh + args.replay > 3600:
        parser.error("--fresh + --replay must be at most 3600 (DynaSent R1 dev)")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    from bench.common import start_stack

    source = args.model_repository
    if source is None:
        from server.modelbuild import build_models

        source = ROOT / ".dynabench-bench-cache" / f"models-{args.profile}"
        build_models(source, profile=args.profile)
    # v2 is written next to v1: work on a copy.
    repository = Path(tempfile.mkdtemp(prefix="dynabench-loop-")) / "models"
    shutil.copytree(source, repository)
    v1_meta = json.loads((repository / MODEL / "1" / "metadata.json").read_text())
    os.environ["DYNABENCH_RETRAIN_RECIPE"] = args.recipe  # the stack's worker inherits it
    stack = start_stack(repository, args.profile)
    try:
        result = asyncio.run(loop(stack, args))
        v2_meta = json.loads((repository / MODEL / result["v2"] / "metadata.json").read_text())
        result["v2_recipe"] = {**v2_meta.get("recipe", {}), "train_seconds": v2_meta.get("train_seconds")}
    finally:
        stack.stop()
        shutil.rmtree(repository.parent, ignore_errors=True)
    print("\n" + report(result, args, v1_meta))
    if args.json:
        args.json.write_text(json.dumps({**result, "v1_heldout": v1_meta["heldout_accuracy"]}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
