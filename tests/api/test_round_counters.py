"""A round's counters in shards (issue #32): concurrent createExample, retractions, votes and their aggregations on one
round, with a recount from rows running among them, leave every counter equal to a recount; GraphQL reads the sums."""

import asyncio
import os
import random
from concurrent.futures import ThreadPoolExecutor

from strawberry.relay import GlobalID

from tests.api.examples_helpers import NEXT_CONTEXT, current_round, submit, wait_until
from tests.api.test_validation import VALIDATE
from tests.conftest import run_sql, seed_builtin_tasks

RETRACT = "mutation($e: ID!) { retractExample(exampleId: $e) { __typename } }"
TOTALS = "query($r: ID!) { node(id: $r) { ... on Round { totalCollected totalFooled totalValidated totalValidatedFooled } } }"
# The definition of each counter, from rows (round_count_queries.RECOUNT).
RECOUNT = """
SELECT count(*) FILTER (WHERE NOT retracted) AS "totalCollected",
       count(*) FILTER (WHERE NOT retracted AND fooled) AS "totalFooled",
       count(*) FILTER (WHERE NOT retracted AND status = 'validated') AS "totalValidated",
       count(*) FILTER (WHERE NOT retracted AND fooled AND status = 'validated') AS "totalValidatedFooled"
FROM examples WHERE round = $1"""


def _recount(round_pk: int) -> None:
    """The worker's recount job, enqueued and waited for (arq keeps its result)."""
    from arq import create_pool
    from arq.connections import RedisSettings

    from server.annotation.validation import jobs as validation_jobs
    from server.core.jobs import job_name

    async def go():
        pool = await create_pool(RedisSettings.from_dsn(os.environ["REDIS_URL"]))
        job = await pool.enqueue_job(job_name(validation_jobs.recompute_round_counters), round_pk)
        await job.result(timeout=60)
        await pool.aclose()

    asyncio.run(go())


def _settled() -> bool:
    return (
        run_sql(
            "SELECT (SELECT count(*) FROM validations WHERE NOT aggregated) + "
            "(SELECT count(*) FROM examples WHERE status = 'pending' AND NOT retracted) AS n"
        )[0]["n"]
        == 0
    )


def test_concurrent_writes_retractions_votes_and_a_recount_keep_every_counter_exact(api, target_models):
    seed_builtin_tasks()
    round_id = current_round(api, "sentiment")
    round_pk = int(GlobalID.from_id(round_id).node_id)
    authors = [api.sign_up(f"author{i}") for i in range(6)]
    validators = [api.sign_up(f"validator{i}") for i in range(4)]
    contexts = [api(NEXT_CONTEXT, {"r": round_id}, token=token)["nextContext"]["id"] for token in authors]
    rng = random.Random(7)
    labels = [rng.choice(["positive", "negative", "neutral"]) for _ in range(60)]

    def write(i: int):
        text = f"Review {i}: the {rng.choice(['soup', 'service', 'room'])} was {rng.choice(['fine', 'awful', 'grand'])}."
        result = submit(api, authors[i % 6], round_id, contexts[i % 6], {"statement": text}, label=labels[i])
        assert result["__typename"] == "ExampleSubmitted", result
        return i % 6, result["example"]

    with ThreadPoolExecutor(12) as pool:
        written = list(pool.map(write, range(60)))
    assert api(TOTALS, {"r": round_id})["node"]["totalCollected"] == 60

    def retract(item):
        author, example = item
        assert api(RETRACT, {"e": example["id"]}, token=authors[author])["retractExample"]["__typename"] != "Error"

    def vote(job):
        validator, example = job
        result = api(VALIDATE, {"e": example["id"], "l": "CORRECT"}, token=validators[validator])["validateExample"]
        # a vote may meet the example decided or retracted meanwhile: an expected refusal, not an error
        assert result["__typename"] == "ExampleValidated" or result["code"] == "CONFLICT", result

    open_examples = [example for _, example in written if example["status"] == "open"]
    jobs = [(v, example) for example in open_examples for v in range(3)]
    rng.shuffle(jobs)
    first, second = jobs[: len(jobs) // 2], jobs[len(jobs) // 2 :]

    # With a recount among the writes: it waits for those in flight, holds the next ones, and loses none.
    with ThreadPoolExecutor(12) as pool:
        futures = [pool.submit(retract, item) for item in written[:30:5]] + [pool.submit(vote, job) for job in first]
        futures.append(pool.submit(_recount, round_pk))
        for future in futures:
            future.result()
    wait_until(_settled, timeout=120)
    assert api(TOTALS, {"r": round_id})["node"] == run_sql(RECOUNT, round_pk)[0]

    # The writers alone (no recount after them): each adds exactly what its change made.
    with ThreadPoolExecutor(12) as pool:
        futures = [pool.submit(retract, item) for item in written[30::5]] + [pool.submit(vote, job) for job in second]
        for future in futures:
            future.result()
    wait_until(_settled, timeout=120)
    recount = run_sql(RECOUNT, round_pk)[0]
    assert recount["totalCollected"] == 60 - len(written[::5])
    assert jobs == [] or recount["totalValidated"] > 0  # the votes decided some examples: the validated counters moved
    assert api(TOTALS, {"r": round_id})["node"] == recount
    stored = run_sql("SELECT * FROM round_totals WHERE round = $1", round_pk)[0]
    assert [stored[k] for k in ("total_collected", "total_fooled", "total_validated", "total_validated_fooled")] == [
        recount[k] for k in ("totalCollected", "totalFooled", "totalValidated", "totalValidatedFooled")
    ]


def test_round_stats_merges_a_burst_of_examples_into_a_few_messages_ending_with_the_latest(stack, api, target_models):
    from tests.api.test_two_api_processes import Subscriber

    seed_builtin_tasks()
    round_id = current_round(api, "sentiment")
    authors = [api.sign_up(f"burst{i}") for i in range(4)]
    context = api(NEXT_CONTEXT, {"r": round_id}, token=authors[0])["nextContext"]["id"]
    watcher = Subscriber(
        stack.api_url, authors[0], "subscription($r: ID!) { roundStats(roundId: $r) { totalCollected } }", {"r": round_id}
    )
    assert watcher.next()["roundStats"]["totalCollected"] == 0

    def write(i: int):
        result = submit(api, authors[i % 4], round_id, context, {"statement": f"Burst review {i}."}, label="positive")
        assert result["__typename"] == "ExampleSubmitted", result

    with ThreadPoolExecutor(8) as pool:
        list(pool.map(write, range(40)))
    seen = [watcher.until(lambda data: True)["roundStats"]["totalCollected"]]
    while seen[-1] < 40:
        seen.append(watcher.next()["roundStats"]["totalCollected"])
    watcher.ws.close()
    assert seen == sorted(seen) and seen[-1] == 40  # never backwards, and the last message holds the latest count
    # 40 examples, each at least one event on the round's channel, from 8 writers at once: merged (0.2 s intervals),
    # fewer messages than examples (one per event before)
    assert len(seen) < 40, seen
