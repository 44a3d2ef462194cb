"""The list queries tests/scale/test_query_plans.py explains on a million examples, and how it explains them.

``CASES``: each list query the API runs (the very SQL text, imported from the resolvers and services), its arguments
from the seeded world, the indexes it may read each big table through and its read budget (rows of examples +
validations). ``explain`` runs EXPLAIN ANALYZE as a custom plan or as the generic plan a prepared statement switches to;
``scan_nodes`` and ``scanned_relation`` walk the plan."""

from __future__ import annotations

import json
import os
import re

import asyncpg

from server.annotation.browse import queries as browse_queries
from server.annotation.examples import queries as example_queries
from server.annotation.validation import queries as validation_queries
from server.graphql.annotation import schema as validation_api
from server.graphql.core.relay import PK_MAX
from server.tasks import queries as task_queries
from tests.conftest import run_sql

PAGE_READ_BUDGET = 2_000  # rows of examples + validations a page of 20 may read (bad plans read 27k–900k)
# A full-text search for a rare phrase reads its matches over the whole table (a bitmap of the GIN index), then keeps
# the round's: ~5,000 rows for a phrase in 1 of 200 examples, against ~250,000 for a round's scan.
SEARCH_READ_BUDGET = 8_000


def positional(sql: str) -> str:
    counter = iter(range(1, 1000))
    return re.sub(r"\{\}", lambda _: f"${next(counter)}", sql)


def _literal(value) -> str:
    if isinstance(value, str):
        return "'" + value.replace("'", "''") + "'"
    if isinstance(value, list):
        kind = "int" if value and all(isinstance(v, int) for v in value) else "text"
        return "ARRAY[" + ", ".join(map(_literal, value)) + f"]::{kind}[]"
    assert value is None or isinstance(value, (int, bool)), value
    return "NULL" if value is None else str(value).lower() if isinstance(value, bool) else str(value)


async def explain(sql: str, args: list, generic: bool) -> dict:
    connection = await asyncpg.connect(os.environ["DATABASE_URL"])
    try:
        if not generic:
            return json.loads(await connection.fetchval(f"EXPLAIN (ANALYZE, FORMAT JSON) {sql}", *args))[0]["Plan"]
        await connection.execute("SET plan_cache_mode = force_generic_plan")
        await connection.execute(f"PREPARE listed AS {sql}")
        text = await connection.fetchval(f"EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE listed({', '.join(map(_literal, args))})")
        return json.loads(text)[0]["Plan"]
    finally:
        await connection.close()


def scan_nodes(plan: dict):
    if "Relation Name" in plan or "Index Name" in plan:
        yield plan
    for child in plan.get("Plans", []):
        yield from scan_nodes(child)


def scanned_relation(node: dict, index_tables: dict[str, str]) -> str | None:
    return node.get("Relation Name") or index_tables.get(node.get("Index Name", ""))


# (case, SQL the API runs, arguments from the world (by name for a Query), indexes allowed per big table, read budget or None)
CASES = [
    (
        "myExamples, busiest author",
        example_queries.MY_EXAMPLES,
        lambda w: {"user_id": w.busiest, "below": PK_MAX, "limit": 21},
        {"examples": {"examples_user", "examples_pkey"}},
        PAGE_READ_BUDGET,
    ),
    (
        "myExamples, busiest author, deep cursor",
        example_queries.MY_EXAMPLES,
        lambda w: {"user_id": w.busiest, "below": 150_000, "limit": 21},
        {"examples": {"examples_user", "examples_pkey"}},
        PAGE_READ_BUDGET,
    ),
    (
        "myExamples, least active author",
        example_queries.MY_EXAMPLES,
        lambda w: {"user_id": w.rare, "below": PK_MAX, "limit": 21},
        {"examples": {"examples_user"}},
        PAGE_READ_BUDGET,
    ),
    (
        "myExamples(roundId), busiest author, oldest round",
        example_queries.MY_EXAMPLES_IN_ROUND,
        lambda w: {"user_id": w.busiest, "round_id": w.rounds[0], "below": PK_MAX, "limit": 21},
        {"examples": {"examples_user_round_id"}},
        PAGE_READ_BUDGET,
    ),
    (
        "examplesToValidate, current round",
        validation_queries.EXAMPLES_TO_VALIDATE,
        lambda w: {"round_id": w.rounds[-1], "user_id": w.validator, "after_id": 0, "limit": 21},
        {
            "examples": {"examples_open_by_round"},
            "validations": {"validations_user", "validations_unique_example_user"},
        },
        PAGE_READ_BUDGET,
    ),
    (
        "examplesToValidate, oldest round, deep cursor",
        validation_queries.EXAMPLES_TO_VALIDATE,
        lambda w: {"round_id": w.rounds[0], "user_id": w.validator, "after_id": 300_000, "limit": 21},
        {
            "examples": {"examples_open_by_round"},
            "validations": {"validations_user", "validations_unique_example_user"},
        },
        PAGE_READ_BUDGET,
    ),
    (
        "examplesToValidate subscription snapshot",
        validation_queries.QUEUE_SNAPSHOT,
        lambda w: {"round_id": w.rounds[-1], "user_id": w.validator, "limit": validation_api.QUEUE_SNAPSHOT},
        {
            "examples": {"examples_open_queue"},
            "validations": {"validations_user", "validations_unique_example_user"},
        },
        PAGE_READ_BUDGET,
    ),
    (
        "nextExamplesToValidate candidates",
        validation_queries.CANDIDATES,
        lambda w: {"round_id": w.rounds[-1], "user_id": w.validator, "first": 5},
        {
            "examples": {"examples_open_by_round"},
            "validations": {
                "validations_user",
                "validations_user_example",
                "validations_unique_example_user",
                "validations_example",
            },
        },
        5_000,
    ),
    ("round contexts page", task_queries.ROUND_CONTEXTS, lambda w: {"round": w.rounds[-1], "after": 0, "limit": 21}, {}, None),
    (
        "userLeaderboard",
        validation_queries.USER_LEADERBOARD,
        lambda w: {"task_id": w.seeded.task_id, "round_number": None, "first": 21},
        {},
        0,
    ),
    (
        "userLeaderboard(roundNumber)",
        validation_queries.USER_LEADERBOARD,
        lambda w: {"task_id": w.seeded.task_id, "round_number": 4, "first": 21},
        {},
        0,
    ),
    (
        "myStats, busiest author",
        validation_queries.USER_STATS,
        lambda w: {"task_id": w.seeded.task_id, "round_number": None, "user_id": w.busiest},
        {},
        0,
    ),
    # Every aggregation recounts its author's and voters' counters of the round (validation/aggregating.recount_user):
    # proportional to the person's own examples and votes, never to the round's size.
    *(
        (
            f"per-user counters recount, {who}",
            validation_queries.RECOUNT_USER,
            lambda w, attr=attr: {"user_id": getattr(w, attr), "round_id": w.rounds[-1]},
            {
                "examples": {"examples_user_round_id", "examples_pkey"},
                "validations": {"validations_user"},
            },
            PAGE_READ_BUDGET,
        )
        for who, attr in (("a validator", "validator"), ("least active author", "rare"))
    ),
    # The live queues' waiting counts (validationWaiting), a batch of 23 validators at once: the round's backlog counted
    # once, up to the cap, then each one's own open examples and votes taken away (counting the backlog per validator
    # read 233,000 rows here).
    (
        "validationWaiting counts of 23 validators, the busiest author among them",
        validation_queries.COUNT_VOTABLE_MANY,
        lambda w: {
            "round_id": w.rounds[-1],
            "user_ids": [w.validator, w.busiest, w.rare, *w.seeded.user_ids[:: len(w.seeded.user_ids) // 20]],
            "cap": validation_api.WAITING_CAP,
        },
        {
            "examples": {"examples_open_by_round", "examples_user_round_id", "examples_pkey"},
            "validations": {"validations_user"},
        },
        3 * validation_api.WAITING_CAP,
    ),
    # Badges need the days an author was active: proportional to the author's own history by nature.
    (
        "myBadges active days, busiest author",
        validation_queries.ACTIVE_DAYS,
        lambda w: {"task_id": w.seeded.task_id, "user_id": w.busiest},
        {
            "examples": {"examples_user_round_id", "examples_pkey"},
            "validations": {"validations_user"},
        },
        None,
    ),
    # Owners browsing a round (roundExamples): newest first, by filter; the task's flag queue (flaggedExamples).
    (
        "roundExamples, oldest round",
        browse_queries.browse_statement("round", frozenset()),
        lambda w: {"round_id": w.rounds[0], "below": PK_MAX, "limit": 21},
        {"examples": {"examples_round_id"}},
        PAGE_READ_BUDGET,
    ),
    (
        "roundExamples, oldest round, deep cursor",
        browse_queries.browse_statement("round", frozenset()),
        lambda w: {"round_id": w.rounds[0], "below": 100_000, "limit": 21},
        {"examples": {"examples_round_id"}},
        PAGE_READ_BUDGET,
    ),
    (
        "roundExamples(author), busiest author, oldest round",
        browse_queries.browse_statement("round", frozenset({"author"})),
        lambda w: {"round_id": w.rounds[0], "author": _username(w.busiest), "below": PK_MAX, "limit": 21},
        {"examples": {"examples_user_round_id"}},
        PAGE_READ_BUDGET,
    ),
    (
        "roundExamples(statuses: flagged), current round",
        browse_queries.browse_statement("round", frozenset({"statuses"})),
        lambda w: {"round_id": w.rounds[-1], "statuses": ["flagged"], "below": PK_MAX, "limit": 21},
        {"examples": {"examples_round_id", "examples_flag_queue"}},
        # 1 in ~200 of the current round's examples: the newest 21 are among its newest ~4,500 (the generic plan reads
        # them through examples_round_id; a custom plan takes the flag queue's index)
        SEARCH_READ_BUDGET,
    ),
    (
        "roundExamples(text), a word in a third of the examples",
        browse_queries.browse_statement("round", frozenset({"text"})),
        lambda w: {"round_id": w.rounds[-1], "text": "awful", "below": PK_MAX, "limit": 21},
        {"examples": {"examples_round_id", "examples_search"}},
        PAGE_READ_BUDGET,
    ),
    (
        "roundExamples(text), a phrase in 1 of 200 examples",
        browse_queries.browse_statement("round", frozenset({"text"})),
        lambda w: {"round_id": w.rounds[0], "text": '"place 117"', "below": PK_MAX, "limit": 21},
        {"examples": {"examples_round_id", "examples_search"}},
        SEARCH_READ_BUDGET,
    ),
    (
        "flaggedExamples, the task's flag queue",
        browse_queries.browse_statement("task", frozenset({"flagged", "retracted"})),
        lambda w: {"task_id": w.seeded.task_id, "retracted": False, "below": PK_MAX, "limit": 21},
        {"examples": {"examples_flag_queue_by_id"}},
        PAGE_READ_BUDGET,
    ),
]


def _username(user_id: int) -> str:
    return run_sql("SELECT username FROM users WHERE id = $1", user_id)[0]["username"]


# Statements the API runs with custom plans only (browse/queries.py CUSTOM_PLANS: a search is planned for its words).
CUSTOM_PLAN_ONLY = {
    "roundExamples(text), a word in a third of the examples",
    "roundExamples(text), a phrase in 1 of 200 examples",
}
