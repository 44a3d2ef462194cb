"""The whole loop on real data, two rounds: v1 from seed data → DynaSent round 1 dev replayed as submissions and
validations → v2 retrained from every validated one → round 2 opened with v2 → a fresh replay, and DynaSent's own
round-2 sentences replayed and validated there → v3 retrained from both rounds → every version measured on data the
training never saw, each figure with its 95% interval.

    .venv/bin/python -m bench.retrain_loop [--quick] [--replay 3000] [--fresh 600] [--test 3600] [--r2-dev 360]
                                           [--one-round] [--profile fast|full] [--recipe continue|scratch]
                                           [--validate-all | --validated-only] [--json out.json]

`--recipe` sets DYNABENCH_RETRAIN_RECIPE for the stack's worker (server/modelbuild/continuation.py): `continue`
(the default: from the current version, development split, steps scaled with the data) or `scratch` (the recipe
before it: from the base encoder, the profile's steps). The replay is seeded, so two runs differing only in
`--recipe` retrain on the same validated examples (the ablation of docs/design.md §4.8).

Everything goes through the product. DynaSent R1 dev is shuffled (seeded) and split: a *fresh* slice (never
replayed before round 2, never trained on) and the *replayed* rest. Each replayed sentence is written with
submitExamples in round 1 (judged by v1) with its gold label as the writer's intended label; each one that fooled
v1 gets its five real validators' votes through validateExample (CORRECT when the validator's label equals the
gold label, as in tests/api/test_validation_real_data.py). trainTargetModel then trains v2 on the seed data plus
every validated example and (unless `--validated-only`) the non-fooling ones the target agreed with (the run's own
counts are checked against round 1's), openNextRound opens round 2 judged by v2, and the fresh slice is written
there with submitExamples, by another writer who retracts each once judged (so never trained on): v2's fooling rate is the product's verdicts; the other versions' on the same sentences are read with
raw tritonclient calls pinned to each version (the same predicate: the model's label differs from the writer's).
DynaSent R2 dev is shuffled and split too: `--r2-dev` rows measure every version, the rest is replayed with its
real votes in round 2 and v3 is trained from rounds 1 and 2 (`--one-round` stops at v2 and measures on all 720).
Errors on DynaSent R1 *test* (never replayed) and on the R2 dev rows come from raw tritonclient calls pinned to each
version; each has a Wilson interval, and consecutive versions a paired bootstrap interval of their difference.
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
from bench.retrain_report import report

MODEL = "sentiment_minilm"
LABELS = ("positive", "negative", "neutral")
R1_DEV, R1_TEST = "dynasent-v1.1-round01-yelp-dev.jsonl", "dynasent-v1.1-round01-yelp-test.jsonl"
R2_DEV = "dynasent-v1.1-round02-dynabench-dev.jsonl"
QUICK = {"replay": 300, "fresh": 100, "test": 300, "r2_dev": 360}
SUBMIT = """mutation($i: [CreateExampleInput!]!) { submitExamples(inputs: $i) {
  ... on ExampleSubmitted { verdict example { id } } ... on Error { message } } }"""
VOTE = "mutation($e: ID!, $l: ValidationLabel!) { validateExample(exampleId: $e, label: $l) { __typename } }"
RETRACT = "mutation($e: ID!) { retractExample(exampleId: $e) { __typename } }"
TRAIN = """mutation($p: TrainingProfile!, $r: [Int!]!, $a: Boolean!) {
  trainTargetModel(taskCode: "sentiment", fromRounds: $r, profile: $p, includeAgreed: $a) {
  __typename ... on TrainingStarted { run { id } } ... on Error { message } } }"""
RUN = """query($id: ID!) { node(id: $id) { ... on TrainingRun { status modelVersion nValidated metrics
  statusLog { message } trainingData { validatedExamples validatedRead agreedRead validatedHeldOut validatedShare minDraws seedExamples steps
  validatedDev bestStep startedFrom }
  gate { passed summary heldOut { examples currentError newError difference ciLow ciHigh mcnemarP } } } } }"""
# The loop measures every version, also one the retraining gate rejects (its decision is reported beside the table).
OVERRIDE = """mutation($r: ID!) { overrideTrainingGate(runId: $r, reason: "bench/retrain_loop.py measures every version") {
  __typename ... on Error { message } } }"""
OPEN_NEXT = """mutation($v: String!) { openNextRound(taskCode: "sentiment", modelVersion: $v) {
  __typename ... on NextRoundOpened { round { id number } } ... on Error { message } } }"""
CURRENT = '{ task(code: "sentiment") { currentRound { id number totalValidated contexts(first: 1) { edges { node { id } } } } } }'
CONFIG = '{ task(code: "sentiment") { config } }'
UPDATE = """mutation($c: JSON!) { updateTask(input: {taskCode: "sentiment", config: $c}) {
  __typename ... on Error { message } } }"""
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


async def replay(
    http,
    rows: list[dict],
    validate: bool,
    tokens: dict[str, str],
    author: str = "author",
    every: bool = False,
    retract: bool = False,
) -> tuple[int, int]:
    """Submit rows as examples of sentiment's current round (written by `author`, whose token is kept in `tokens`);
    cast their real validators' votes if `validate`, on the fooling ones (or on `every` one); `retract` withdraws
    each once its verdict is in (never trained on, not even as an example the model agreed with). Returns (fooled,
    votes cast)."""
    from bench.validation_fanout import gql, sign_up

    current = await current_round(http)
    round_id, context_id = current["id"], current["contexts"]["edges"][0]["node"]["id"]
    writer = tokens.get(author) or tokens.setdefault(author, await sign_up(http, f"{author}_{uuid.uuid4().hex[:6]}"))
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
        results = (await gql(http, SUBMIT, {"i": inputs}, writer))["submitExamples"]
        for row, result in zip(batch, results, strict=True):
            assert "verdict" in result, result
            fooled += result["verdict"] == "FOOLED"
            if retract:
                retracted = (await gql(http, RETRACT, {"e": result["example"]["id"]}, writer))["retractExample"]
                assert retracted["__typename"] == "ExampleChanged", retracted
            if not validate or (result["verdict"] != "FOOLED" and not every):
                continue  # only fooling examples are validated (the built-in config), unless every one is
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
    """Until no example of the round is still open (the worker aggregates votes asynchronously);
    returns how many are still open when it gives up."""
    from bench.validation_fanout import gql

    deadline = time.monotonic() + limit_s
    while True:
        still_open, after = 0, None
        while True:
            page = (await gql(http, MINE, {"r": round_id, "after": after}, token))["myExamples"]
            still_open += sum(e["node"]["status"] == "open" for e in page["edges"])  # awaiting votes (or their count)
            if not page["pageInfo"]["hasNextPage"]:
                break
            after = page["pageInfo"]["endCursor"]
        if not still_open or time.monotonic() > deadline:
            return still_open
        await asyncio.sleep(2)


async def retrain(http, admin: str, rounds: list[int], profile: str, agreed: bool) -> tuple[dict, float]:
    """trainTargetModel from `rounds` until the run ends; a version the gate rejects is published anyway (overridden)
    so that the loop can measure it. Returns the run (its gate decision in "gate") and its seconds."""
    from bench.validation_fanout import gql

    run = (await gql(http, TRAIN, {"p": profile.upper(), "r": rounds, "a": agreed}, admin))["trainTargetModel"]
    assert run.get("run"), run
    started = time.perf_counter()
    status: dict = {}
    while status.get("status") not in ("published", "rejected", "failed", "cancelled"):
        await asyncio.sleep(2)
        status = (await gql(http, RUN, {"id": run["run"]["id"]}, admin))["node"]
    assert status["status"] in ("published", "rejected"), status["statusLog"]
    status["gate"] = {**status["gate"], "status": status["status"]}
    if status["status"] == "rejected":
        overridden = (await gql(http, OVERRIDE, {"r": run["run"]["id"]}, admin))["overrideTrainingGate"]
        assert overridden["__typename"] == "TrainingGateOverridden", overridden
    return status, time.perf_counter() - started


async def play_round(http, admin: str, rows: list[dict], rounds: list[int], tokens: dict, args) -> dict:
    """Replays `rows` with their real votes in the current round, then retrains from `rounds`."""
    started = time.perf_counter()
    current = await current_round(http)
    fooled, votes = await replay(http, rows, True, tokens, every=args.validate_all)
    still_open = await wait_for_outcomes(http, tokens["author"], current["id"])
    validated = (await current_round(http))["totalValidated"]
    replay_s = time.perf_counter() - started
    status, train_s = await retrain(http, admin, rounds, args.profile, not args.validated_only)
    return {
        "round": current["number"],
        "replayed": len(rows),
        "fooled": fooled,
        "votes": votes,
        "validated": validated,
        "still_open": still_open,
        "run": status,
        "replay_s": round(replay_s, 1),
        "train_s": round(train_s, 1),
    }


async def loop(stack, args) -> dict:
    import httpx
    from tritonclient.http.aio import InferenceServerClient

    from bench.validation_fanout import gql

    rng = random.Random(7)
    dev = dynasent(R1_DEV)
    rng.shuffle(dev)
    fresh, replayed = dev[: args.fresh], dev[args.fresh : args.fresh + args.replay]
    test = rng.sample(dynasent(R1_TEST), min(args.test, 3600))
    r2 = dynasent(R2_DEV)
    rng.shuffle(r2)
    r2_eval, r2_replay = r2[: args.r2_dev], (r2[args.r2_dev :] if args.second_round else [])
    http = httpx.AsyncClient(base_url=stack.api_url, timeout=300)
    triton = InferenceServerClient(stack.env["TRITON_URL"])
    login = 'mutation($p: String!) { logIn(input: {username: "admin", password: $p}) { ... on AuthPayload { token } } }'
    admin = (await gql(http, login, {"p": stack.secrets["admin_password"]}))["logIn"]["token"]
    tokens: dict[str, str] = {}

    if args.validate_all:  # as DynaSent was collected: every sentence validated, not only those that fooled the model
        config = (await gql(http, CONFIG, {}, admin))["task"]["config"]
        config["validation"] = {**config.get("validation", {}), "validate_non_fooling": True}
        updated = (await gql(http, UPDATE, {"c": config}, admin))["updateTask"]
        assert updated["__typename"] == "TaskUpdated", updated
    wall = time.perf_counter()
    rounds = [await play_round(http, admin, replayed, [1], tokens, args)]
    versions = ["1", rounds[0]["run"]["modelVersion"]]
    opened = (await gql(http, OPEN_NEXT, {"v": versions[1]}, admin))["openNextRound"]
    assert opened["__typename"] == "NextRoundOpened", opened
    # Written by another author (round 2's wait for outcomes counts the replayed author's open examples), never
    # validated and retracted once judged: never trained on.
    fresh_fooled_v2, _ = await replay(http, fresh, False, tokens, author="fresh", retract=True)
    if r2_replay:  # round 2: DynaSent's own round-2 sentences against v2, then v3 from both rounds
        rounds.append(await play_round(http, admin, r2_replay, [1, 2], tokens, args))
        versions.append(rounds[1]["run"]["modelVersion"])
        opened = (await gql(http, OPEN_NEXT, {"v": versions[2]}, admin))["openNextRound"]
        assert opened["__typename"] == "NextRoundOpened", opened

    validated = agreed = 0
    for played in rounds:
        validated += played["validated"]
        # Not fooling and not validated (the built-in config): closed, read as the examples the target agreed with.
        agreed += 0 if args.validate_all or args.validated_only else played["replayed"] - played["fooled"]
        if not played["still_open"]:  # every outcome was in when training read them: the run trained on exactly those
            data = played["run"]["trainingData"]  # the gate's share and the development split are never trained on
            assert data["agreedRead"] == agreed, f"read {data['agreedRead']} agreed examples of {agreed}"
            trainable = validated + agreed - data["validatedHeldOut"] - data["validatedDev"]
            assert played["run"]["nValidated"] == trainable, f"trained on {played['run']['nValidated']} of {trainable}"

    sets = {"r1_test": test, "r2_dev": r2_eval, "fresh": fresh}
    wrong: dict[str, dict[str, list[bool]]] = {}
    for version in versions:
        wrong[version] = {}
        for name, rows in sets.items():
            predicted = await predict(triton, version, [r["sentence"] for r in rows])
            wrong[version][name] = [p != r["gold_label"] for p, r in zip(predicted, rows, strict=True)]
    await http.aclose()
    await triton.close()
    return {
        "versions": versions,
        "wrong": wrong,
        "fresh_fooled_v2": fresh_fooled_v2,
        "rounds": rounds,
        "recipe": args.recipe,
        "wall_s": round(time.perf_counter() - wall, 1),
        "sizes": {name: len(rows) for name, rows in sets.items()},
    }


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench.retrain_loop", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help=f"a small run: {QUICK} unless given")
    parser.add_argument("--replay", type=int, default=None, help="R1 dev rows replayed in round 1 and validated (3000)")
    parser.add_argument("--fresh", type=int, default=None, help="R1 dev rows held back for the fresh replay in round 2 (600)")
    parser.add_argument("--test", type=int, default=None, help="R1 test rows for the error column (3600: all)")
    parser.add_argument(
        "--r2-dev", type=int, default=None, help="R2 dev rows for the error column (360 of 720; 720 with --one-round)"
    )
    parser.add_argument(
        "--one-round",
        dest="second_round",
        action="store_false",
        help="stop after v2 (default: replay the rest of R2 dev in round 2, retrain v3)",
    )
    parser.add_argument(
        "--validate-all",
        action="store_true",
        help="the task validates every example (config validation.validate_non_fooling), each with its real votes",
    )
    parser.add_argument(
        "--validated-only",
        action="store_true",
        help="retrain with includeAgreed: false (without the non-fooling examples the target agreed with)",
    )
    parser.add_argument("--profile", choices=["fast", "full"], default="fast")
    parser.add_argument("--recipe", choices=["continue", "scratch"], default="continue", help="the retraining recipe")
    parser.add_argument("--model-repository", type=Path, default=None, help="a built repository to copy (default: build)")
    parser.add_argument("--json", type=Path, default=None, help="also write the results here")
    args = parser.parse_args(argv)
    defaults = QUICK if args.quick else {"replay": 3000, "fresh": 600, "test": 3600, "r2_dev": 360 if args.second_round else 720}
    for name, value in defaults.items():
        if getattr(args, name) is None:
            setattr(args, name, value)
    if args.fresh + args.replay > 3600:
        parser.error("--fresh + --replay must be at most 3600 (DynaSent R1 dev)")
    if args.r2_dev > 720 or (args.second_round and args.r2_dev >= 720):
        parser.error("--r2-dev must leave R2 dev rows for round 2's replay (720 in all), or pass --one-round")
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
    os.environ["DYNABENCH_RETRAIN_RECIPE"] = args.recipe  # the stack's worker inherits it
    stack = start_stack(repository, args.profile)
    try:
        result = asyncio.run(loop(stack, args))
        metas = {v: json.loads((repository / MODEL / v / "metadata.json").read_text()) for v in result["versions"]}
    finally:
        stack.stop()
        shutil.rmtree(repository.parent, ignore_errors=True)
    heldout = {v: (meta["heldout_accuracy"], meta["n_heldout"]) for v, meta in metas.items()}
    result["recipes"] = {v: {**meta.get("recipe", {}), "train_seconds": meta.get("train_seconds")} for v, meta in metas.items()}
    print("\n" + report(result, args, heldout))
    if args.json:
        args.json.write_text(json.dumps({**result, "heldout": heldout}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
