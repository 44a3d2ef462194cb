"""The list and leaderboard queries on a million examples: index plans, bounded reads, right answers.

Once for this module the session's PostgreSQL is seeded by bench/seed_scale.py (1M examples with a
realistic skew, ~0.95M votes, 10k users, 4 rounds, 20k contexts, 300 models; ~25 s). Then:

- every list query the API runs (the very SQL text, imported from the resolvers and services; the cases are in
  tests/scale/list_query_plans.py) is explained with EXPLAIN ANALYZE twice: as a custom plan for real arguments (the busiest author, a
  one-example author, the current and the oldest round, deep cursors) and as the generic plan that a
  prepared statement switches to after five runs (asyncpg prepares every statement). The examples
  and validations tables must be read through the expected indexes only, never a Seq Scan, and at
  most a bounded number of their rows (row counts from the plan, not times: tests never assert on
  wall-clock time; bench/query_latency.py measures the latencies);
- each GraphQL list and leaderboard answers what a reference computed here from rows says.

The tables are truncated before and after (the other tests expect empty tables).
"""

from __future__ import annotations

import asyncio
import itertools
import os
from dataclasses import dataclass

import pytest
from strawberry.relay import GlobalID, to_base64

from bench.seed_scale import Seeded, seed
from server.annotation.validation import stats
from server.core.sql import Query
from server.graphql.core.relay import encode_cursor
from tests.conftest import TABLES, GraphQLClient, run_sql
from tests.scale.list_query_plans import CASES, CUSTOM_PLAN_ONLY, explain, positional, scan_nodes, scanned_relation

BIG = ("examples", "validations")


@dataclass
class World:
    seeded: Seeded
    api: GraphQLClient
    busiest: int  # wrote ~46k examples
    rare: int  # wrote the fewest (~20; their newest are spread over the whole table)
    validator: int
    rounds: list[int]

    def token(self, user_id: int) -> str:
        from server.accounts.credentials import issue_session_token

        return issue_session_token(user_id, os.environ["JWT_SECRET"], 3600)


@pytest.fixture(scope="module")
def world(stack):
    run_sql(f"TRUNCATE {TABLES} RESTART IDENTITY CASCADE")
    seeded = asyncio.run(seed(os.environ["DATABASE_URL"]))
    counts = run_sql('SELECT "user", count(*) AS n FROM examples GROUP BY "user" ORDER BY n DESC, "user"')
    api = GraphQLClient(stack.api_url)
    try:
        yield World(
            seeded, api, counts[0]["user"], counts[-1]["user"], seeded.user_ids[len(seeded.user_ids) // 2], seeded.round_ids
        )
    finally:
        api.http.close()
        run_sql(f"TRUNCATE {TABLES} RESTART IDENTITY CASCADE")


# --- plans --------------------------------------------------------------------------------------


PLANS = [
    pytest.param(case, generic, id=f"{case[0]}-{'generic' if generic else 'custom'} plan")
    for case in CASES
    for generic in (False, True)
    if not (generic and case[0] in CUSTOM_PLAN_ONLY)
]


@pytest.mark.parametrize("case, generic", PLANS)
def test_list_query_plans_read_through_indexes(world, case, generic):
    name, sql, make_args, allowed, budget = case
    index_tables = {
        r["indexname"]: r["tablename"] for r in run_sql("SELECT indexname, tablename FROM pg_indexes WHERE schemaname = 'public'")
    }
    if isinstance(sql, Query):  # named statements of a query room, with their arguments by name
        text, args = sql.sql, list(sql.arguments(make_args(world)))
    else:
        text, args = positional(sql), make_args(world)
    plan = asyncio.run(explain(text, args, generic))
    scans = list(scan_nodes(plan))
    read = 0
    for node in scans:
        relation = scanned_relation(node, index_tables)
        assert node["Node Type"] != "Seq Scan" or relation not in (*BIG, "contexts"), (name, node["Node Type"], relation)
        if relation in BIG and "Index Name" in node:
            assert node["Index Name"] in allowed.get(relation, ()), (name, node["Index Name"])
        if relation in BIG and node["Node Type"] != "Bitmap Index Scan":
            loops = node.get("Actual Loops", 1)
            read += (
                node["Actual Rows"] + node.get("Rows Removed by Filter", 0) + node.get("Rows Removed by Index Recheck", 0)
            ) * loops
    if budget is not None:
        assert read <= budget, f"{name}: the plan read {read:.0f} rows of {'/'.join(BIG)}"


# --- answers through GraphQL --------------------------------------------------------------------


def _ids(connection: dict) -> list[int]:
    return [int(GlobalID.from_id(edge["node"]["id"]).node_id) for edge in connection["edges"]]


MY_EXAMPLES = "query($r: ID, $a: String) { myExamples(roundId: $r, first: 50, after: $a) { edges { node { id } } pageInfo { hasNextPage endCursor } } }"


def test_my_examples_pages(world):
    token = world.token(world.busiest)
    expected = [r["id"] for r in run_sql('SELECT id FROM examples WHERE "user" = $1 ORDER BY id DESC LIMIT 150', world.busiest)]
    pages, after = [], None
    for _ in range(3):
        page = world.api(MY_EXAMPLES, {"a": after}, token)["myExamples"]
        pages += _ids(page)
        after = page["pageInfo"]["endCursor"]
    assert pages == expected
    middle = expected[-1] - 400_000  # far back in the author's history
    deep = world.api(MY_EXAMPLES, {"a": encode_cursor(middle)}, token)["myExamples"]
    assert _ids(deep) == [
        r["id"]
        for r in run_sql('SELECT id FROM examples WHERE "user" = $1 AND id < $2 ORDER BY id DESC LIMIT 50', world.busiest, middle)
    ]
    oldest_round = world.api(MY_EXAMPLES, {"r": to_base64("Round", world.rounds[0])}, token)["myExamples"]
    assert _ids(oldest_round) == [
        r["id"]
        for r in run_sql(
            'SELECT id FROM examples WHERE "user" = $1 AND round = $2 ORDER BY id DESC LIMIT 50', world.busiest, world.rounds[0]
        )
    ]
    assert _ids(world.api(MY_EXAMPLES, {}, world.token(world.rare))["myExamples"]) == [
        r["id"] for r in run_sql('SELECT id FROM examples WHERE "user" = $1 ORDER BY id DESC', world.rare)
    ]


def test_examples_to_validate_pages(world):
    query = (
        "query($r: ID!, $a: String) { examplesToValidate(roundId: $r, first: 100, after: $a) "
        "{ edges { node { id status } } pageInfo { endCursor } } }"
    )
    token = world.token(world.validator)
    reference = """SELECT id FROM examples WHERE round = $1 AND status = 'open' AND NOT retracted AND "user" <> $2
                   AND id NOT IN (SELECT example FROM validations WHERE "user" = $2) AND id > $3 ORDER BY id LIMIT 100"""
    for round_id in (world.rounds[-1], world.rounds[0]):
        first = world.api(query, {"r": to_base64("Round", round_id)}, token)["examplesToValidate"]
        assert _ids(first) == [r["id"] for r in run_sql(reference, round_id, world.validator, 0)]
        second = world.api(query, {"r": to_base64("Round", round_id), "a": first["pageInfo"]["endCursor"]}, token)[
            "examplesToValidate"
        ]
        assert _ids(second) == [r["id"] for r in run_sql(reference, round_id, world.validator, _ids(first)[-1])]
        assert {e["node"]["status"] for e in first["edges"] + second["edges"]} == {"open"}


def test_next_examples_to_validate_hands_out_open_fooling_examples_once(world):
    query = "query($r: ID!) { nextExamplesToValidate(roundId: $r, first: 5) { id } }"
    round_id = to_base64("Round", world.rounds[-1])
    first = [
        int(GlobalID.from_id(e["id"]).node_id)
        for e in world.api(query, {"r": round_id}, world.token(world.validator))["nextExamplesToValidate"]
    ]
    other = world.seeded.user_ids[-2]
    second = [
        int(GlobalID.from_id(e["id"]).node_id)
        for e in world.api(query, {"r": round_id}, world.token(other))["nextExamplesToValidate"]
    ]
    assert len(first) == len(second) == 5 and not set(first) & set(second)  # the first five are claimed
    rows = run_sql('SELECT id, "user", status, fooled, retracted FROM examples WHERE id = ANY($1::int[])', first + second)
    assert all(r["status"] == "open" and r["fooled"] and not r["retracted"] for r in rows)
    assert not run_sql('SELECT 1 FROM validations WHERE example = ANY($1::int[]) AND "user" = $2', first, world.validator)
    run_sql("DELETE FROM validation_claims")


def test_validation_waiting_counts_equal_a_count_from_rows(world):
    """validationWaiting (one validator) and the batched count of the live queues agree with the definition, counted
    from rows: the round's open examples not the validator's own, not voted on by them, not gold, up to the cap."""
    from server.annotation.validation import queries as validation_queries
    from server.graphql.annotation.schema import WAITING_CAP

    query = "query($r: ID!) { validationWaiting(roundId: $r) { count capped } }"
    reference = """SELECT least($3::int, count(*))::int AS n FROM examples e WHERE e.round = $1 AND e.status = 'open'
                   AND NOT e.retracted AND e."user" <> $2
                   AND NOT EXISTS (SELECT 1 FROM validations v WHERE v.example = e.id AND v."user" = $2)
                   AND NOT EXISTS (SELECT 1 FROM gold_items g WHERE g.example = e.id)"""
    users = [world.validator, world.busiest, world.rare]
    for round_id in (world.rounds[-1], world.rounds[0]):
        for cap in (WAITING_CAP, 50):  # the product's cap, and one far below the backlog
            expected = {user: run_sql(reference, round_id, user, cap)[0]["n"] for user in users}
            statement = validation_queries.COUNT_VOTABLE_MANY  # the live queues' batch, as the API sends it
            args = statement.arguments({"round_id": round_id, "user_ids": users, "cap": cap})
            batched = {row["user_id"]: row["waiting"] for row in run_sql(statement.sql, *args)}
            assert batched == expected, (round_id, cap)
        for user in users:
            answer = world.api(query, {"r": to_base64("Round", round_id)}, world.token(user))["validationWaiting"]
            count = run_sql(reference, round_id, user, WAITING_CAP)[0]["n"]
            assert answer == {"count": count, "capped": count >= WAITING_CAP}


def test_round_contexts_pages(world):
    query = (
        "query($r: ID!, $a: String) { node(id: $r) { ... on Round { contexts(first: 100, after: $a) "
        "{ edges { node { id } } pageInfo { endCursor } } } } }"
    )
    round_id = to_base64("Round", world.rounds[-1])
    first = world.api(query, {"r": round_id})["node"]["contexts"]
    second = world.api(query, {"r": round_id, "a": first["pageInfo"]["endCursor"]})["node"]["contexts"]
    assert _ids(first) + _ids(second) == [
        r["id"] for r in run_sql("SELECT id FROM contexts WHERE round = $1 ORDER BY id LIMIT 200", world.rounds[-1])
    ]


# The per-user numbers recounted from every row (not from the counters the API reads).
FROM_ROWS = """
SELECT u.id AS user_id, u.username,
  coalesce(a.submitted, 0)::int AS submitted, coalesce(a.fooled, 0)::int AS fooled,
  coalesce(a.verified_fooled, 0)::int AS verified_fooled, coalesce(v.done, 0)::int AS validations_done
FROM users u
LEFT JOIN (SELECT e."user", count(*) AS submitted, count(*) FILTER (WHERE e.fooled) AS fooled,
                  count(*) FILTER (WHERE e.fooled AND e.status <> 'rejected') AS verified_fooled
           FROM examples e JOIN rounds r ON r.id = e.round
           WHERE r.task = $1 AND ($2::int IS NULL OR r.number = $2) AND NOT e.retracted GROUP BY e."user") a ON a."user" = u.id
LEFT JOIN (SELECT v."user", count(*) AS done FROM validations v JOIN examples e ON e.id = v.example JOIN rounds r ON r.id = e.round
           WHERE r.task = $1 AND ($2::int IS NULL OR r.number = $2) GROUP BY v."user") v ON v."user" = u.id
WHERE a."user" IS NOT NULL OR v."user" IS NOT NULL
"""
BOARD = """query($t: String!, $n: Int) { userLeaderboard(taskCode: $t, roundNumber: $n, first: 25) {
  rank user { username } submitted fooled verifiedFooled verifiedMer validationsDone } }"""


@pytest.mark.parametrize("round_number", [None, 4, 1])
def test_user_leaderboard_equals_a_recount_from_rows(world, round_number):
    recount = stats.rank([stats.UserStats(**r) for r in run_sql(FROM_ROWS, world.seeded.task_id, round_number)])[:25]
    board = world.api(BOARD, {"t": world.seeded.task_code, "n": round_number})["userLeaderboard"]
    assert board == [
        {
            "rank": i + 1,
            "user": {"username": s.username},
            "submitted": s.submitted,
            "fooled": s.fooled,
            "verifiedFooled": s.verified_fooled,
            "verifiedMer": s.verified_mer,
            "validationsDone": s.validations_done,
        }
        for i, s in enumerate(recount)
    ]
    mine = world.api(
        "query($t: String!, $n: Int) { myStats(taskCode: $t, roundNumber: $n) { submitted fooled verifiedFooled validationsDone } }",
        {"t": world.seeded.task_code, "n": round_number},
        world.token(world.busiest),
    )["myStats"]
    busiest = next(r for r in run_sql(FROM_ROWS, world.seeded.task_id, round_number) if r["user_id"] == world.busiest)
    assert mine == {
        "submitted": busiest["submitted"],
        "fooled": busiest["fooled"],
        "verifiedFooled": busiest["verified_fooled"],
        "validationsDone": busiest["validations_done"],
    }


def test_round_counters_equal_a_recount_from_rows(world):
    query = "query($r: ID!) { node(id: $r) { ... on Round { totalCollected totalFooled totalValidated totalValidatedFooled } } }"
    for round_id in world.rounds:
        recount = run_sql(
            """SELECT count(*) FILTER (WHERE NOT retracted) AS c, count(*) FILTER (WHERE fooled AND NOT retracted) AS f,
                             count(*) FILTER (WHERE status = 'validated' AND NOT retracted) AS v,
                             count(*) FILTER (WHERE fooled AND status = 'validated' AND NOT retracted) AS vf
                             FROM examples WHERE round = $1""",
            round_id,
        )[0]
        node = world.api(query, {"r": to_base64("Round", round_id)})["node"]
        assert node == {
            "totalCollected": recount["c"],
            "totalFooled": recount["f"],
            "totalValidated": recount["v"],
            "totalValidatedFooled": recount["vf"],
        }


def test_round_agreement_equals_krippendorffs_alpha_over_the_votes(world):
    query = "query($r: ID!) { node(id: $r) { ... on Round { agreement } } }"
    for round_id in world.rounds:
        counts = run_sql(
            """SELECT count(*) FILTER (WHERE v.label = 'correct') AS c, count(*) FILTER (WHERE v.label = 'incorrect') AS i,
                            count(*) FILTER (WHERE v.label = 'flagged') AS f FROM validations v JOIN examples e ON e.id = v.example
                            WHERE e.round = $1 AND v.mode = 'user' GROUP BY v.example""",
            round_id,
        )
        expected = stats.reference_alpha([[r["c"], r["i"], r["f"]] for r in counts])
        assert world.api(query, {"r": to_base64("Round", round_id)})["node"]["agreement"] == pytest.approx(expected, abs=1e-9)


def test_model_leaderboard_ranks_every_published_scored_model(world):
    query = """query($t: String!, $a: String) { leaderboard(taskCode: $t, first: 100, after: $a) {
      edges { cursor node { rank dynascore model { name } } } totalCount pageInfo { hasNextPage endCursor }
      rows { rank } hasNextPage endCursor } }"""  # the deprecated shape (docs/api.md) answers alongside until removed
    first = world.api(query, {"t": world.seeded.task_code})["leaderboard"]
    second = world.api(query, {"t": world.seeded.task_code, "a": first["pageInfo"]["endCursor"]})["leaderboard"]
    rows = [edge["node"] for edge in first["edges"] + second["edges"]]
    for page in (first, second):
        assert page["edges"][-1]["cursor"] == page["pageInfo"]["endCursor"] == page["endCursor"]
        assert [r["rank"] for r in page["rows"]] == [edge["node"]["rank"] for edge in page["edges"]]
        assert page["hasNextPage"] == page["pageInfo"]["hasNextPage"]
    first, second = ({**page, **page["pageInfo"]} for page in (first, second))
    published = {
        r["name"]
        for r in run_sql(
            "SELECT name FROM models m WHERE task = $1 AND status = 'evaluated' AND published "
            "AND (SELECT count(*) FROM scores s JOIN datasets d ON d.id = s.dataset WHERE s.model = m.id AND d.access = 'scoring') = 3",
            world.seeded.task_id,
        )
    }
    assert first["totalCount"] == len(published) == 150 and first["hasNextPage"] and not second["hasNextPage"]
    assert {r["model"]["name"] for r in rows} == published
    assert [r["rank"] for r in rows] == list(range(1, len(rows) + 1))
    assert all(a["dynascore"] >= b["dynascore"] for a, b in itertools.pairwise(rows))
