"""Latency of the list and leaderboard queries through the GraphQL API on a database of 1M examples.

    .venv/bin/python bench/query_latency.py [--calls 200] [--examples 1000000]

Starts its own stack (PostgreSQL, Redis, Triton without models, one worker, one API process), seeds it
with bench/seed_scale.py (1M examples with a realistic skew, ~0.95M votes, 10k users, 4 rounds,
20k contexts, 300 models; the same data tests/scale/test_query_plans.py checks the plans on), then
calls each query `--calls` times one after another over a kept-alive HTTP connection (after 20
warm-up calls) and prints p50/p99 per query. The target is p99 < 50 ms for every list and leaderboard query,
and for the owners' browsing (roundExamples with filters and full-text search, flaggedExamples). Times are end
to end at the client: HTTP, auth, GraphQL parse/validate/execute, SQL.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiohttp
from strawberry.relay import to_base64

from bench.common import percentile
from bench.seed_scale import seed

TARGET_MS = 50.0
EXAMPLES = "query($r: ID, $a: String) { myExamples(roundId: $r, first: 20, after: $a) { edges { node { id input status fooled createdAt } } pageInfo { hasNextPage endCursor } } }"
TO_VALIDATE = "query($r: ID!, $a: String) { examplesToValidate(roundId: $r, first: 20, after: $a) { edges { node { id input modelOutput fooled } } pageInfo { endCursor } } }"
NEXT = "query($r: ID!) { nextExamplesToValidate(roundId: $r, first: 5) { id input modelOutput } }"
CONTEXTS = "query($r: ID!, $a: String) { node(id: $r) { ... on Round { contexts(first: 20, after: $a) { edges { node { id fields totalUsed } } pageInfo { endCursor } } } } }"
USERS = "query($t: String!, $n: Int) { userLeaderboard(taskCode: $t, roundNumber: $n, first: 20) { rank user { username } submitted fooled verifiedFooled verifiedMer validationsDone } }"
MY_STATS = "query($t: String!) { myStats(taskCode: $t) { submitted fooled verifiedFooled verifiedMer validationsDone } }"
BADGES = "query($t: String!) { myBadges(taskCode: $t) { name } }"
MODELS = "query($t: String!, $a: String) { leaderboard(taskCode: $t, first: 20, after: $a) { edges { node { rank dynascore model { name } metrics { perf throughput memory robustness fairness } } } totalCount pageInfo { endCursor } } }"
ROUND = "query($r: ID!) { node(id: $r) { ... on Round { number totalCollected totalFooled totalValidated totalValidatedFooled mer vmer } } }"
AGREEMENT = "query($r: ID!) { node(id: $r) { ... on Round { agreement } } }"
BROWSE = "query($r: ID!, $f: ExampleFilterInput, $a: String) { roundExamples(roundId: $r, filter: $f, first: 20, after: $a) { edges { node { id input status fooled flagged createdAt } } pageInfo { hasNextPage endCursor } } }"
FLAGGED = "query($t: String!) { flaggedExamples(taskCode: $t, first: 20) { edges { node { id input status flagReason } } } }"
TASKS = "{ tasks(first: 20) { edges { node { code mer vmer currentRound { number totalCollected totalFooled mer vmer } } } } }"


def cases(world: dict) -> list[tuple[str, str, dict, str | None]]:
    """(what, query, variables, token) — arguments picked to be the expensive ones."""
    from bench.seed_scale import TASK_CODE
    from server.graphql.core.relay import encode_cursor

    current, oldest = (to_base64("Round", r) for r in (world["rounds"][-1], world["rounds"][0]))
    busiest, rare, validator, owner = world["busiest"], world["rare"], world["validator"], world["owner"]
    deep_mine, deep_open = encode_cursor(world["deep_mine"]), encode_cursor(world["deep_open"])
    return [
        ("myExamples, busiest author (46k examples)", EXAMPLES, {}, busiest),
        ("myExamples, busiest author, deep cursor", EXAMPLES, {"a": deep_mine}, busiest),
        ("myExamples(roundId), busiest author, oldest round", EXAMPLES, {"r": oldest}, busiest),
        ("myExamples, least active author", EXAMPLES, {}, rare),
        ("examplesToValidate, current round", TO_VALIDATE, {"r": current}, validator),
        ("examplesToValidate, oldest round, deep cursor", TO_VALIDATE, {"r": oldest, "a": deep_open}, validator),
        ("nextExamplesToValidate, current round", NEXT, {"r": current}, validator),
        ("round contexts, first page", CONTEXTS, {"r": current}, None),
        ("round contexts, deep cursor", CONTEXTS, {"r": current, "a": encode_cursor(world["deep_context"])}, None),
        ("userLeaderboard (all rounds, 10k users)", USERS, {"t": TASK_CODE}, None),
        ("userLeaderboard(roundNumber: 4)", USERS, {"t": TASK_CODE, "n": 4}, None),
        ("myStats, busiest author", MY_STATS, {"t": TASK_CODE}, busiest),
        ("myBadges, busiest author", BADGES, {"t": TASK_CODE}, busiest),
        ("leaderboard (Dynascore, 150 models), first page", MODELS, {"t": TASK_CODE}, None),
        ("leaderboard (Dynascore), deep cursor", MODELS, {"t": TASK_CODE, "a": encode_cursor(120)}, None),
        ("round counters, MER, vMER", ROUND, {"r": current}, None),
        ("tasks with current round counters", TASKS, {}, None),
        ("round agreement (Krippendorff's alpha), current round", AGREEMENT, {"r": current}, None),
        ("roundExamples (owner), oldest round", BROWSE, {"r": oldest}, owner),
        ("roundExamples (owner), oldest round, deep cursor", BROWSE, {"r": oldest, "a": encode_cursor(100_000)}, owner),
        ("roundExamples(author: busiest), oldest round", BROWSE, {"r": oldest, "f": {"author": world["busiest_name"]}}, owner),
        ("roundExamples(statuses: FLAGGED), current round", BROWSE, {"r": current, "f": {"statuses": ["FLAGGED"]}}, owner),
        ("roundExamples(text: a word in 1/3), current round", BROWSE, {"r": current, "f": {"text": "awful"}}, owner),
        ("roundExamples(text: a phrase in 1/200), oldest round", BROWSE, {"r": oldest, "f": {"text": '"place 117"'}}, owner),
        ("flaggedExamples (the task's flag queue)", FLAGGED, {"t": TASK_CODE}, owner),
    ]


async def measure(url: str, secret: str, world: dict, calls: int) -> list[tuple[str, list[float]]]:
    from server.accounts.credentials import issue_session_token

    results = []
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=1)) as http:
        for what, query, variables, user in cases(world):
            headers = {"Authorization": f"Bearer {issue_session_token(user, secret, 3600)}"} if user else {}
            latencies = []
            for i in range(calls + 20):
                started = time.perf_counter()
                async with http.post(
                    f"{url}/graphql", json={"query": query, "variables": variables}, headers=headers
                ) as response:
                    body = await response.json()
                elapsed = (time.perf_counter() - started) * 1000
                assert response.status == 200 and not body.get("errors"), (what, body)
                if i >= 20:
                    latencies.append(elapsed)
            results.append((what, latencies))
    return results


async def find_world(dsn: str, seeded) -> dict:
    import asyncpg

    connection = await asyncpg.connect(dsn)
    try:
        counts = await connection.fetch('SELECT "user", count(*) AS n FROM examples GROUP BY "user" ORDER BY n DESC, "user"')
        busiest = counts[0]["user"]
        deep_mine = await connection.fetchval(
            'SELECT id FROM examples WHERE "user" = $1 ORDER BY id LIMIT 1 OFFSET 5000', busiest
        )
        deep_open = await connection.fetchval(
            "SELECT id FROM examples WHERE round = $1 AND status = 'open' ORDER BY id LIMIT 1 OFFSET 5000", seeded.round_ids[0]
        )
        deep_context = await connection.fetchval(
            "SELECT id FROM contexts WHERE round = $1 ORDER BY id LIMIT 1 OFFSET 4000", seeded.round_ids[-1]
        )
        busiest_name = await connection.fetchval("SELECT username FROM users WHERE id = $1", busiest)
        owner = seeded.user_ids[-1]  # owns the task: browses its rounds
        await connection.execute('INSERT INTO task_owners (task, "user") VALUES ($1, $2)', seeded.task_id, owner)
    finally:
        await connection.close()
    return {
        "rounds": seeded.round_ids,
        "busiest": busiest,
        "rare": counts[-1]["user"],
        "deep_mine": deep_mine,
        "deep_open": deep_open,
        "deep_context": deep_context,
        "validator": seeded.user_ids[len(seeded.user_ids) // 2],
        "owner": owner,
        "busiest_name": busiest_name,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=200, help="measured calls per query (after 20 warm-up calls)")
    parser.add_argument("--examples", type=int, default=1_000_000)
    args = parser.parse_args()
    from server.cli.local_stack import LocalStack

    repository = Path(tempfile.mkdtemp(prefix="dynabench-empty-models-"))  # no model is needed for reading
    stack = LocalStack(
        Path(tempfile.mkdtemp(prefix="dynabench-bench-")), model_repository=repository, load_models=False, durable=False
    ).start()
    try:
        seeded = asyncio.run(seed(stack.env["DATABASE_URL"], examples=args.examples))
        print(f"Seeded {seeded.examples:,} examples and {seeded.validations:,} votes in {seeded.seconds:.1f} s {seeded.steps}")
        world = asyncio.run(find_world(stack.env["DATABASE_URL"], seeded))
        results = asyncio.run(measure(stack.api_url, stack.secrets["jwt_secret"], world, args.calls))
    finally:
        stack.stop()
    print(
        f"\nGraphQL list and leaderboard queries on {args.examples:,} examples, one API process, {args.calls} sequential "
        f"calls each after 20 warm-up calls (target p99 < {TARGET_MS:.0f} ms)\n"
    )
    print("| query | n | p50 (ms) | p99 (ms) | max (ms) | mean (ms) | p99 < 50 ms |\n|---|---|---|---|---|---|---|")
    for what, latencies in results:
        p99 = percentile(latencies, 99)
        print(
            f"| {what} | {len(latencies)} | {percentile(latencies, 50):.1f} | {p99:.1f} | {max(latencies):.1f} | "
            f"{statistics.fmean(latencies):.1f} | {'yes' if p99 < TARGET_MS else 'NO'} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
