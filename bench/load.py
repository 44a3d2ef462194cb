"""Many annotators and validators at once against two API processes and two workers.

    .venv/bin/python bench/load.py [--users 200] [--duration 60] [--validators 0.3] [--think 0.5,3]
                                   [--profile fast|full] [--model-repository DIR] [--history 100000]

Starts its own stack (PostgreSQL, Redis, Triton, two arq workers, two API processes), writes
`--history` examples of an older task into it (bench/seed_scale.py, with statistics), signs up
`--users` accounts and runs each as an asyncio task for `--duration` seconds on the built-in
sentiment task's current round:

- annotators (70%): nextContext → think → createExample with a real DynaSent sentence and its gold
  label; now and then retract or flag one of their own examples, read myExamples, myStats or the
  round's counters. Each holds a `roundStats` subscription open (a message per new example).
- validators (30%): nextExamplesToValidate → think → validateExample for each (mostly CORRECT);
  now and then read userLeaderboard, the model leaderboard or the examplesToValidate page. Each holds
  an `examplesToValidate` subscription open (the live queue).

Requests alternate over the two API processes; so do the subscriptions. Think times are drawn from
`--think` (seconds). Prints per operation n, p50, p99, mean, refusals (expected answers such as a
vote on an example its author retracted meanwhile) and errors (HTTP or GraphQL errors, unexpected
results, lost subscriptions), throughput, subscription messages; then waits for the workers to
settle and checks that every counter equals a recount from rows. Exits 1 on any error or mismatch.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import random
import statistics
import sys
import time
import uuid
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiohttp
import asyncpg
import websockets

from bench.common import percentile, real_sentences, start_stack

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
MODELS = '{ leaderboard(taskCode: "sentiment") { rows { rank dynascore model { name } } totalCount } }'
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
        self.verdicts: Counter[str] = Counter()

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
        self.recorder.latencies[op].append((time.perf_counter() - started) * 1000)
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


def cpu_seconds(stack) -> dict[str, float]:
    """CPU time so far of each part of the stack (children included: PostgreSQL backends, Triton stubs) and of this client."""
    import psutil

    totals: dict[str, float] = defaultdict(float)
    for name in stack.group.names:
        pid = getattr(stack.group.get(name), "pid", None)
        if pid is None:
            continue
        try:
            root = psutil.Process(pid)
            for process in [root, *root.children(recursive=True)]:
                times = process.cpu_times()
                totals[name.split("-")[0] if name.startswith(("api", "worker")) else name] += times.user + times.system
        except psutil.Error:
            continue
    own = psutil.Process().cpu_times()
    totals["load client (this process)"] = own.user + own.system
    return dict(totals)


async def run(stack, users: int, duration: float, validator_share: float, think_range: tuple[float, float]) -> Recorder:
    recorder = Recorder()
    client = Client(stack.api_urls, recorder)
    data = await client.call("setup", '{ task(code: "sentiment") { currentRound { id } } }')
    round_id = data["task"]["currentRound"]["id"]
    signup = (
        'mutation($u: String!) { signUp(input: {username: $u, password: "load test password"}) { ... on AuthPayload { token } } }'
    )
    gate = asyncio.Semaphore(8)

    async def sign_up(i: int) -> str:
        async with gate:
            return (await client.call("setup", signup, {"u": f"load_{i}_{uuid.uuid4().hex[:6]}"}))["signUp"]["token"]

    tokens = await asyncio.gather(*(sign_up(i) for i in range(users)))
    n_validators = round(users * validator_share)
    roles = ["validator"] * n_validators + ["annotator"] * (users - n_validators)
    ws_urls = [u.replace("http://", "ws://") + "/graphql" for u in stack.api_urls]
    readies = [asyncio.Event() for _ in range(users)]
    subscriptions = [
        asyncio.create_task(
            subscribe(
                ws_urls[i % len(ws_urls)],
                token,
                SUB_QUEUE if role == "validator" else SUB_ROUND,
                round_id,
                "examplesToValidate" if role == "validator" else "roundStats",
                recorder,
                readies[i],
            )
        )
        for i, (token, role) in enumerate(zip(tokens, roles))
    ]
    await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), 120)  # every subscription answered (or failed)
    recorder.latencies.pop("setup", None)
    sentences = real_sentences(3000)
    deadline = time.monotonic() + duration

    def think() -> float:
        return random.uniform(*think_range)

    started = time.monotonic()
    cpu_before = cpu_seconds(stack)
    await asyncio.gather(
        *(
            validator(client, token, round_id, deadline, think)
            if role == "validator"
            else annotator(client, token, round_id, sentences, deadline, think)
            for token, role in zip(tokens, roles)
        )
    )
    recorder.wall = time.monotonic() - started
    cpu_after = cpu_seconds(stack)
    recorder.cpu = {name: cpu_after[name] - cpu_before.get(name, 0.0) for name in cpu_after}
    alive = [s for s in subscriptions if not s.done()]
    recorder.subscriptions_alive = len(alive)
    for task in subscriptions:
        task.cancel()
    await asyncio.gather(*subscriptions, return_exceptions=True)
    await client.http.close()
    return recorder


# Every counter, recounted from rows (the definitions of validation/queries.RECOMPUTE_ROUND and RECOUNT_USER).
CHECKS = {
    "rounds": """SELECT r.id FROM rounds r LEFT JOIN LATERAL (SELECT count(*) FILTER (WHERE NOT retracted) AS c,
        count(*) FILTER (WHERE NOT retracted AND fooled) AS f, count(*) FILTER (WHERE NOT retracted AND status = 'validated') AS v,
        count(*) FILTER (WHERE NOT retracted AND fooled AND status = 'validated') AS vf FROM examples WHERE round = r.id) x ON true
        WHERE (r.total_collected, r.total_fooled, r.total_validated, r.total_validated_fooled) <> (x.c, x.f, x.v, x.vf)""",
    "user_round_stats": """SELECT s.id FROM user_round_stats s LEFT JOIN LATERAL (SELECT count(*) AS n,
        count(*) FILTER (WHERE fooled AND NOT retracted) AS f, count(*) FILTER (WHERE fooled AND NOT retracted AND status = 'rejected') AS fr,
        count(*) FILTER (WHERE retracted) AS r FROM examples WHERE "user" = s."user" AND round = s.round) x ON true
        LEFT JOIN LATERAL (SELECT count(*) AS d FROM validations v JOIN examples e ON e.id = v.example
        WHERE v."user" = s."user" AND e.round = s.round) y ON true
        WHERE (s.submitted, s.fooled, s.fooled_rejected, s.retracted, s.validations_done) <> (x.n, x.f, x.fr, x.r, y.d)""",
    "user_round_stats missing": """SELECT DISTINCT e."user", e.round FROM examples e
        WHERE NOT EXISTS (SELECT 1 FROM user_round_stats s WHERE s."user" = e."user" AND s.round = e.round)""",
    "contexts": """SELECT c.id FROM contexts c LEFT JOIN LATERAL (SELECT count(*) AS n, count(*) FILTER (WHERE fooled AND NOT retracted) AS f
        FROM examples WHERE context = c.id) x ON true WHERE (c.total_used, c.total_fooled) <> (x.n, x.f)""",
}


async def consistency(dsn: str, timeout: float = 360) -> dict[str, int]:
    """Wait until the workers have judged and aggregated everything, then count mismatches."""
    from server.annotation.aggregation import Vote, outcome
    from server.annotation.validation.queries import AGREEMENT_FROM_ROWS

    connection = await asyncpg.connect(dsn)
    try:
        # Retracted examples are never judged (nor need to be); every other one must be.
        unsettled = (
            "SELECT (SELECT count(*) FROM validations WHERE NOT aggregated) AS unaggregated_votes, "
            "(SELECT count(*) FROM examples WHERE status = 'pending' AND NOT retracted) AS pending_examples"
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and any((await connection.fetchrow(unsettled)).values()):
            await asyncio.sleep(0.5)
        mismatches = {name: len(await connection.fetch(sql)) for name, sql in CHECKS.items()}
        # The rounds' agreement sums (kept by the aggregation job one example at a time) vs a recount.
        recount = {
            r["round"]: r
            for r in await connection.fetch(
                AGREEMENT_FROM_ROWS.sql, [r["id"] for r in await connection.fetch("SELECT id FROM rounds")]
            )
        }
        stored = {r["round"]: r for r in await connection.fetch("SELECT round, units, coincidences FROM round_agreement")}
        mismatches["round agreement"] = sum(
            1
            for round_id in recount.keys() | stored.keys()
            if round_id not in recount
            or round_id not in stored
            or recount[round_id]["units"] != stored[round_id]["units"]
            or any(abs(a - b) > 1e-6 for a, b in zip(recount[round_id]["coincidences"], stored[round_id]["coincidences"]))
        )
        votes = defaultdict(list)
        for row in await connection.fetch("SELECT example, label, mode FROM validations ORDER BY created_at, id"):
            votes[row["example"]].append(Vote(row["label"], row["mode"]))
        statuses = {
            r["id"]: (r["status"], r["fooled"])
            for r in await connection.fetch("SELECT id, status, fooled FROM examples WHERE id = ANY($1::int[])", list(votes))
        }

        def expected(cast: list, fooled: bool) -> str:
            # The built-in sentiment task: 3 matching votes decide; undecided fooling examples stay open.
            decided = outcome(cast, 3)
            return decided if decided != "open" else ("open" if fooled else "closed")

        mismatches["example outcomes"] = sum(
            1 for example, cast in votes.items() if statuses[example][0] != expected(cast, statuses[example][1])
        )
        mismatches.update({f"still {k}": v for k, v in (await connection.fetchrow(unsettled)).items()})
        return mismatches
    finally:
        await connection.close()


def report(recorder: Recorder, args, mismatches: dict[str, int], n_examples: int) -> int:
    total = sum(len(v) for v in recorder.latencies.values())
    errors = sum(recorder.errors.values())
    print(
        f"\n{args.users} users ({round(args.users * args.validators)} validators) for {args.duration:.0f} s, think "
        f"{args.think} s, 2 API processes, 2 workers, {args.profile} models, {args.history:,} examples of history\n"
    )
    print("| operation | n | p50 (ms) | p99 (ms) | mean (ms) | refused | errors |\n|---|---|---|---|---|---|---|")
    for op in sorted(recorder.latencies, key=lambda o: -len(recorder.latencies[o])):
        values = recorder.latencies[op]
        refused = sum(n for key, n in recorder.refusals.items() if key.startswith(f"{op}:"))
        print(
            f"| {op} | {len(values)} | {percentile(values, 50):.1f} | {percentile(values, 99):.1f} | "
            f"{statistics.fmean(values):.1f} | {refused} | {recorder.errors[op]} |"
        )
    print(
        f"\nThroughput: {total / recorder.wall:.1f} operations/s ({total} in {recorder.wall:.1f} s); "
        f"examples stored: {n_examples}; verdicts: {dict(recorder.verdicts)}"
    )
    print(
        f"Subscription messages: {dict(recorder.messages)}; subscriptions alive at the end: "
        f"{recorder.subscriptions_alive}/{args.users}; subscription errors: {recorder.subscription_errors}"
    )
    cores = ", ".join(
        f"{name} {seconds / recorder.wall:.2f}" for name, seconds in sorted(recorder.cpu.items(), key=lambda kv: -kv[1])
    )
    print(
        f"CPU used during the run, in cores (the machine has 2): {cores}; total {sum(recorder.cpu.values()) / recorder.wall:.2f}"
    )
    print(f"Refusals: {dict(recorder.refusals) or 0}")
    print(f"Errors: {errors}" + "".join(f"\n  {s}" for s in recorder.error_samples))
    print(f"Counters vs recount from rows, mismatches: {mismatches}")
    return 1 if errors or any(mismatches.values()) or recorder.subscriptions_alive < args.users else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--users", type=int, default=200)
    parser.add_argument("--duration", type=float, default=60.0, help="seconds")
    parser.add_argument("--validators", type=float, default=0.3, help="share of the users who validate")
    parser.add_argument("--think", default="0.5,3", help="think time range in seconds: min,max")
    parser.add_argument("--profile", choices=["fast", "full"], default="fast")
    parser.add_argument("--model-repository", type=Path, default=None)
    parser.add_argument(
        "--history",
        type=int,
        default=100_000,
        help="examples already in the database (another task, bench/seed_scale.py, analyzed) before the run",
    )
    args = parser.parse_args()
    think_range = tuple(float(x) for x in args.think.split(","))
    stack = start_stack(args.model_repository, args.profile, api_processes=2, worker_processes=2)
    try:
        if args.history:
            # A platform in use: statistics exist, so PostgreSQL does not plan (and cache) every
            # statement for empty tables, as it would in the first minute of a brand-new database.
            from bench.seed_scale import seed

            seeded = asyncio.run(seed(stack.env["DATABASE_URL"], examples=args.history))
            print(f"History: {seeded.examples:,} examples, {seeded.validations:,} votes in another task ({seeded.seconds:.1f} s)")
        recorder = asyncio.run(run(stack, args.users, args.duration, args.validators, think_range))
        mismatches = asyncio.run(consistency(stack.env["DATABASE_URL"]))
        n_examples = asyncio.run(_count(stack.env["DATABASE_URL"]))
    finally:
        stack.stop()
    return report(recorder, args, mismatches, n_examples)


async def _count(dsn: str) -> int:
    connection = await asyncpg.connect(dsn)
    try:
        return await connection.fetchval(
            "SELECT count(*) FROM examples e JOIN rounds r ON r.id = e.round JOIN tasks t ON t.id = r.task WHERE t.code = 'sentiment'"
        )
    finally:
        await connection.close()


if __name__ == "__main__":
    sys.exit(main())
