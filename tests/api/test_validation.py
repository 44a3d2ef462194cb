"""Validation through GraphQL: the queue, votes, aggregation by the worker, live pushes, numbers."""

import json
from concurrent.futures import ThreadPoolExecutor

import pytest
from websockets.sync.client import connect

from tests.api.examples_helpers import NEXT_CONTEXT, current_round, fooling_example, submit, wait_until
from tests.conftest import run_sql, seed_builtin_tasks

VALIDATE = """mutation($e: ID!, $l: ValidationLabel!, $m: ValidationMode! = USER) {
  validateExample(exampleId: $e, label: $l, mode: $m) { __typename ... on ExampleValidated { validation { label mode } }
  ... on Error { code message } } }"""
NEXT = "query($r: ID!, $n: Int!) { nextExamplesToValidate(roundId: $r, first: $n) { id fooled } }"


def _world(api, n_examples=3):
    seed_builtin_tasks()
    author = api.sign_up("author")
    round_id = current_round(api, "sentiment")
    context_id = api(NEXT_CONTEXT, {"r": round_id}, token=author)["nextContext"]["id"]
    examples = [
        fooling_example(api, author, round_id, context_id, f"Review number {i}: it was something else.")
        for i in range(n_examples)
    ]
    return author, round_id, context_id, examples


def _waiting(api, round_id, token):
    return api("query($r: ID!) { validationWaiting(roundId: $r) { count capped } }", {"r": round_id}, token=token)[
        "validationWaiting"
    ]


def _status(example_id):
    from strawberry.relay import GlobalID

    pk = int(GlobalID.from_id(example_id).node_id)
    return run_sql("SELECT status FROM examples WHERE id = $1", pk)[0]["status"]


def test_queue_rules(api, target_models):
    author, round_id, context_id, examples = _world(api, 3)
    validator = api.sign_up("validator")
    # Not fooling → not in the queue; pending/retracted/own/already-voted are excluded too.
    not_fooled_label = submit(api, author, round_id, context_id, {"statement": "Plain."}, label="negative", sandbox=True)[
        "predictions"
    ][0]["label"]
    submit(api, author, round_id, context_id, {"statement": "Plain."}, label=not_fooled_label)
    api("mutation($e: ID!) { retractExample(exampleId: $e) { __typename } }", {"e": examples[2]["id"]}, token=author)
    assert api(NEXT, {"r": round_id, "n": 10}, token=author)["nextExamplesToValidate"] == []  # own examples
    assert _waiting(api, round_id, author) == {"count": 0, "capped": False}
    assert _waiting(api, round_id, validator) == {"count": 2, "capped": False}
    queue = api(NEXT, {"r": round_id, "n": 10}, token=validator)["nextExamplesToValidate"]
    assert sorted(e["id"] for e in queue) == sorted(e["id"] for e in examples[:2])
    assert (
        api(VALIDATE, {"e": examples[0]["id"], "l": "CORRECT"}, token=validator)["validateExample"]["__typename"]
        == "ExampleValidated"
    )
    assert [e["id"] for e in api(NEXT, {"r": round_id, "n": 10}, token=validator)["nextExamplesToValidate"]] == [
        examples[1]["id"]
    ]
    assert _waiting(api, round_id, validator)["count"] == 1  # handed out, not voted on: it still waits for them
    connection = api(
        "query($r: ID!) { examplesToValidate(roundId: $r) { edges { node { id } } } }", {"r": round_id}, token=validator
    )
    assert [e["node"]["id"] for e in connection["examplesToValidate"]["edges"]] == [examples[1]["id"]]


def test_concurrent_validators_get_different_examples(api, target_models):
    _author, round_id, _, examples = _world(api, 4)
    tokens = [api.sign_up(f"validator{i}") for i in range(4)]
    with ThreadPoolExecutor(4) as pool:
        picks = list(pool.map(lambda t: api(NEXT, {"r": round_id, "n": 1}, token=t)["nextExamplesToValidate"], tokens))
    assert sorted(p[0]["id"] for p in picks) == sorted(e["id"] for e in examples)


def test_vote_refusals(api, target_models):
    author, round_id, _, examples = _world(api, 1)
    example_id = examples[0]["id"]
    validator = api.sign_up("validator")
    handed = api(NEXT, {"r": round_id, "n": 1}, token=validator)["nextExamplesToValidate"]
    assert [e["id"] for e in handed] == [example_id]
    assert run_sql("SELECT count(*) AS n FROM validation_claims")[0]["n"] == 1  # handed out: claimed for this validator

    def votes_counted() -> list[int]:
        return [
            r["validations_done"] for r in run_sql("SELECT validations_done FROM user_round_stats WHERE validations_done > 0")
        ]

    assert (
        api(VALIDATE, {"e": example_id, "l": "CORRECT"}, token=author)["validateExample"]["message"]
        == "You cannot validate your own example."
    )
    assert (
        api(VALIDATE, {"e": example_id, "l": "CORRECT", "m": "OWNER"}, token=validator)["validateExample"]["code"] == "FORBIDDEN"
    )
    assert (
        api(VALIDATE, {"e": example_id, "l": "CORRECT"}, token=validator)["validateExample"]["__typename"] == "ExampleValidated"
    )
    # The vote released the claim and counted once for the validator.
    assert run_sql("SELECT count(*) AS n FROM validation_claims")[0]["n"] == 0 and votes_counted() == [1]
    second = api(VALIDATE, {"e": example_id, "l": "INCORRECT"}, token=validator)["validateExample"]
    assert second == {
        "__typename": "ConflictError",
        "code": "ALREADY_VALIDATED",
        "message": "You have already validated this example.",
    }
    assert votes_counted() == [1]  # the refused second vote counted nothing
    api("mutation($e: ID!) { retractExample(exampleId: $e) { __typename } }", {"e": example_id}, token=author)
    late = api(VALIDATE, {"e": example_id, "l": "CORRECT"}, token=api.sign_up("late"))["validateExample"]
    assert late["message"] == "This example was retracted by its author."
    assert api(VALIDATE, {"e": example_id, "l": "CORRECT"})["validateExample"]["__typename"] == "AuthenticationError"
    assert run_sql("SELECT count(*) AS n FROM validations")[0]["n"] == 1


def test_three_matching_votes_validate_and_counters_follow(api, target_models):
    author, round_id, _, examples = _world(api, 2)
    voters = [api.sign_up(f"voter{i}") for i in range(3)]
    for token in voters:
        api(VALIDATE, {"e": examples[0]["id"], "l": "CORRECT"}, token=token)
        api(VALIDATE, {"e": examples[1]["id"], "l": "INCORRECT"}, token=token)
    wait_until(lambda: _status(examples[0]["id"]) == "validated" and _status(examples[1]["id"]) == "rejected")
    round_numbers = api(
        "query($r: ID!) { node(id: $r) { ... on Round { totalCollected totalFooled totalValidated totalValidatedFooled mer vmer agreement } } }",
        {"r": round_id},
    )["node"]
    assert round_numbers["totalValidatedFooled"] == 1 and round_numbers["totalValidated"] == 1
    assert round_numbers["vmer"] == 0.5 and round_numbers["mer"] == 1.0
    assert round_numbers["agreement"] == 1.0  # every validator agreed on every example
    me = api('{ myStats(taskCode: "sentiment") { submitted fooled verifiedFooled verifiedMer } }', token=author)["myStats"]
    assert me == {"submitted": 2, "fooled": 2, "verifiedFooled": 1, "verifiedMer": 0.5}
    board = api('{ userLeaderboard(taskCode: "sentiment") { rank user { username } verifiedFooled validationsDone } }')[
        "userLeaderboard"
    ]
    assert board[0] == {"rank": 1, "user": {"username": "author"}, "verifiedFooled": 1, "validationsDone": 0}
    assert {row["user"]["username"]: row["validationsDone"] for row in board[1:]} == {"voter0": 2, "voter1": 2, "voter2": 2}
    assert (
        run_sql(
            "SELECT validations_done FROM user_round_stats us JOIN users u ON u.id = us.\"user\" WHERE u.username = 'voter0'"
        )[0]["validations_done"]
        == 2
    )


def test_owner_mode_decides_at_once(api, target_models, admin_token):
    _author, _round_id, _, examples = _world(api, 1)
    api(VALIDATE, {"e": examples[0]["id"], "l": "INCORRECT"}, token=api.sign_up("voter"))
    assert api(VALIDATE, {"e": examples[0]["id"], "l": "CORRECT", "m": "OWNER"}, token=admin_token)["validateExample"][
        "validation"
    ] == {"label": "CORRECT", "mode": "OWNER"}
    wait_until(lambda: _status(examples[0]["id"]) == "validated")


def test_aggregation_is_idempotent_under_repeated_and_concurrent_runs(api, target_models):
    import asyncio
    import os

    from arq import create_pool
    from arq.connections import RedisSettings

    from server.annotation.validation import jobs as validation_jobs
    from server.core.jobs import job_name

    _author, _round_id, _, examples = _world(api, 1)
    for i, label in enumerate(["CORRECT", "INCORRECT", "CORRECT", "INCORRECT", "FLAGGED"]):
        api(VALIDATE, {"e": examples[0]["id"], "l": label}, token=api.sign_up(f"voter{i}"))
    wait_until(lambda: _status(examples[0]["id"]) == "flagged")  # 2N-1 votes, tie -> owners review
    pk = run_sql("SELECT id FROM examples")[0]["id"]
    before = run_sql(
        "SELECT total_collected, total_fooled, total_validated, total_validated_fooled FROM round_totals WHERE total_collected > 0"
    )

    async def hammer():
        pool = await create_pool(RedisSettings.from_dsn(os.environ["REDIS_URL"]))
        enqueued = [await pool.enqueue_job(job_name(validation_jobs.aggregate_example), pk) for _ in range(10)]
        # The positive signal that nothing changed: every run has finished (arq keeps each job's result).
        decided = [await job.result(timeout=60) for job in enqueued]
        await pool.aclose()
        return decided

    assert asyncio.run(hammer()) == ["flagged"] * 10
    wait_until(lambda: run_sql("SELECT count(*) AS n FROM validations")[0]["n"] == 5)
    assert _status(examples[0]["id"]) == "flagged"
    assert (
        run_sql(
            "SELECT total_collected, total_fooled, total_validated, total_validated_fooled FROM round_totals WHERE total_collected > 0"
        )
        == before
    )


def _ws(stack, token):
    ws = connect(stack.api_url.replace("http://", "ws://") + "/graphql", subprotocols=["graphql-transport-ws"])
    ws.send(json.dumps({"type": "connection_init", "payload": {"Authorization": f"Bearer {token}"}}))
    assert json.loads(ws.recv(timeout=30))["type"] == "connection_ack"
    return ws


def _next(ws):
    while True:
        message = json.loads(ws.recv(timeout=60))
        if message["type"] == "ping":
            ws.send(json.dumps({"type": "pong"}))
            continue
        assert message["type"] == "next", message
        return message["payload"]["data"]


def test_live_queue_and_example_updates(stack, api, target_models):
    author, round_id, context_id, examples = _world(api, 1)
    validators = [api.sign_up(f"voter{i}") for i in range(3)]
    queue_ws = _ws(stack, validators[0])
    queue_ws.send(
        json.dumps(
            {
                "id": "q",
                "type": "subscribe",
                "payload": {
                    "query": "subscription($r: ID!) { examplesToValidate(roundId: $r) { added { id } removedIds } }",
                    "variables": {"r": round_id},
                },
            }
        )
    )
    assert _next(queue_ws)["examplesToValidate"] == {"added": [{"id": examples[0]["id"]}], "removedIds": []}
    author_ws = _ws(stack, author)
    author_ws.send(
        json.dumps(
            {
                "id": "e",
                "type": "subscribe",
                "payload": {
                    "query": "subscription($e: ID!) { exampleUpdated(exampleId: $e) { status } }",
                    "variables": {"e": examples[0]["id"]},
                },
            }
        )
    )
    assert _next(author_ws)["exampleUpdated"] == {"status": "open"}
    # Another user's example fools the model: it appears in the validator's queue.
    newcomer = fooling_example(api, author, round_id, context_id, "A brand new tricky review.")
    assert _next(queue_ws)["examplesToValidate"] == {"added": [{"id": newcomer["id"]}], "removedIds": []}
    for token in validators:
        api(VALIDATE, {"e": examples[0]["id"], "l": "CORRECT"}, token=token)
    statuses = [_next(author_ws)["exampleUpdated"]["status"] for _ in range(3)]
    assert statuses[-1] == "validated"
    assert _next(queue_ws)["examplesToValidate"] == {"added": [], "removedIds": [examples[0]["id"]]}
    queue_ws.close()
    author_ws.close()


def test_the_live_queue_tells_how_many_wait_beyond_its_first_page(stack, api, target_models):
    _, round_id, _, _ = _world(api, 1)
    # 29 more open examples by the author (copies of the first): more than the live queue's first page of 20.
    run_sql(
        'INSERT INTO examples (client_id, round, context, "user", input, model_output, model_name, fooled, status) '
        'SELECT gen_random_uuid(), round, context, "user", input, model_output, model_name, fooled, status '
        "FROM examples, generate_series(1, 29) WHERE status = 'open'"
    )
    validator = api.sign_up("busy-validator")
    ws = _ws(stack, validator)
    query = "subscription($r: ID!) { examplesToValidate(roundId: $r) { added { id } reset waiting { count capped } } }"
    ws.send(json.dumps({"id": "q", "type": "subscribe", "payload": {"query": query, "variables": {"r": round_id}}}))
    first = _next(ws)["examplesToValidate"]
    assert first["reset"] and len(first["added"]) == 20
    assert first["waiting"] == {"count": 30, "capped": False}
    ws.close()
    assert _waiting(api, round_id, validator) == {"count": 30, "capped": False}


def test_badges(api, target_models):
    author, round_id, _, _ = _world(api, 1)
    # Activity on three consecutive days earns the 3-day streak badge.
    run_sql("UPDATE examples SET created_at = now() - interval '2 days'")
    context_id = api(NEXT_CONTEXT, {"r": round_id}, token=author)["nextContext"]["id"]
    fooling_example(api, author, round_id, context_id, "Second day.")
    run_sql("UPDATE examples SET created_at = now() - interval '1 day' WHERE created_at > now() - interval '1 hour'")
    fooling_example(api, author, round_id, context_id, "Third day.")
    badges = api('{ myBadges(taskCode: "sentiment") { name } }', token=author)["myBadges"]
    assert badges == [{"name": "3-day streak"}]
    headers = {"Authorization": f"Bearer {author}", "Accept-Language": "es"}
    spanish = api.http.post(
        "/graphql", json={"query": '{ myBadges(taskCode: "sentiment") { name description } }'}, headers=headers
    )
    assert spanish.json()["data"]["myBadges"] == [
        {"name": "Racha de 3 días", "description": "Activo en Sentiment analysis 3 días seguidos"}
    ]


def test_killed_worker_and_lost_jobs_lose_no_vote(stack, api, target_models):
    import os
    import signal
    import sys
    import uuid as uuid_module

    import redis

    _author, _round_id, _, examples = _world(api, 1)
    worker = next(
        stack.group.get(name) for name in stack.group.names if name.startswith("worker") and stack.group.get(name).poll() is None
    )
    os.kill(worker.pid, signal.SIGKILL)
    worker.wait()
    for i in range(3):
        api(VALIDATE, {"e": examples[0]["id"], "l": "INCORRECT"}, token=api.sign_up(f"voter{i}"))
    redis.Redis.from_url(stack.env["REDIS_URL"]).flushdb()  # the queued aggregation jobs are gone
    assert _status(examples[0]["id"]) == "open"
    name = f"worker-{uuid_module.uuid4().hex[:6]}"
    stack.group.spawn(name, [sys.executable, "-m", "server.cli", "worker"], env=stack.env, log_path=stack.logs / f"{name}.log")
    wait_until(lambda: _status(examples[0]["id"]) == "rejected", timeout=90)
    assert run_sql("SELECT count(*) AS n FROM validations WHERE NOT aggregated")[0]["n"] == 0
    assert run_sql("SELECT total_fooled, total_validated FROM round_totals WHERE total_collected > 0")[0] == {
        "total_fooled": 1,
        "total_validated": 0,
    }


def test_retraction_moves_the_leaderboard_at_once(api, target_models):
    author, _, _, examples = _world(api, 2)
    voters = [api.sign_up(f"voter{i}") for i in range(3)]
    for token in voters:
        api(VALIDATE, {"e": examples[0]["id"], "l": "INCORRECT"}, token=token)
    wait_until(lambda: _status(examples[0]["id"]) == "rejected")
    stats = '{ myStats(taskCode: "sentiment") { submitted fooled verifiedFooled verifiedMer } }'
    board = '{ userLeaderboard(taskCode: "sentiment") { user { username } submitted fooled verifiedFooled validationsDone } }'
    assert api(stats, token=author)["myStats"] == {"submitted": 2, "fooled": 2, "verifiedFooled": 1, "verifiedMer": 0.5}
    retract = "mutation($e: ID!) { retractExample(exampleId: $e) { __typename } }"
    api(retract, {"e": examples[0]["id"]}, token=author)  # the rejected one: verified fooled stays 1
    assert api(stats, token=author)["myStats"] == {"submitted": 1, "fooled": 1, "verifiedFooled": 1, "verifiedMer": 1.0}
    api(retract, {"e": examples[1]["id"]}, token=author)
    assert api(stats, token=author)["myStats"] == {"submitted": 0, "fooled": 0, "verifiedFooled": 0, "verifiedMer": None}
    # Left out of the leaderboard once every example is retracted; the voters stay.
    assert sorted(row["user"]["username"] for row in api(board)["userLeaderboard"]) == ["voter0", "voter1", "voter2"]
    counters = run_sql(
        'SELECT submitted, fooled, fooled_rejected, retracted FROM user_round_stats s JOIN users u ON u.id = s."user" '
        "WHERE u.username = 'author'"
    )
    assert counters == [{"submitted": 2, "fooled": 0, "fooled_rejected": 0, "retracted": 2}]  # what a recount from rows says


def test_agreement_is_kept_one_aggregation_at_a_time_and_equals_alpha_over_the_votes(api, target_models):
    import asyncio
    import os

    from arq import create_pool
    from arq.connections import RedisSettings

    from server.annotation.validation import jobs as validation_jobs
    from server.annotation.validation import queries, stats
    from server.core.jobs import job_name

    _, round_id, _, examples = _world(api, 3)
    voters = [api.sign_up(f"voter{i}") for i in range(4)]
    ballots = {0: ["CORRECT", "CORRECT", "INCORRECT", "FLAGGED"], 1: ["INCORRECT", "INCORRECT"], 2: ["CORRECT"]}
    for index, labels in ballots.items():
        for token, label in zip(voters, labels):
            api(VALIDATE, {"e": examples[index]["id"], "l": label}, token=token)
    settled = "SELECT count(*) AS n FROM validations WHERE NOT aggregated"
    wait_until(lambda: run_sql(settled)[0]["n"] == 0)
    query = "query($r: ID!) { node(id: $r) { ... on Round { agreement } } }"
    expected = stats.reference_alpha(
        [[labels.count(x) for x in ("CORRECT", "INCORRECT", "FLAGGED")] for labels in ballots.values()]
    )
    assert api(query, {"r": round_id})["node"]["agreement"] == pytest.approx(expected, abs=1e-12)
    recount = run_sql(queries.AGREEMENT_FROM_ROWS.sql, [r["id"] for r in run_sql("SELECT id FROM rounds")])
    stored = run_sql("SELECT round, units, coincidences FROM round_agreement_totals ORDER BY round")
    assert [(r["round"], r["units"]) for r in stored] == [(r["round"], r["units"]) for r in recount] and stored[0]["units"] == 2
    assert stored[0]["coincidences"] == pytest.approx(recount[0]["coincidences"], abs=1e-12)

    pks = [r["id"] for r in run_sql("SELECT id FROM examples")]

    async def again():  # aggregation runs again (a retried job): nothing moves
        pool = await create_pool(RedisSettings.from_dsn(os.environ["REDIS_URL"]))
        enqueued = [await pool.enqueue_job(job_name(validation_jobs.aggregate_example), pk) for pk in pks]
        for job in enqueued:  # the positive signal: each run has finished (arq keeps each job's result)
            await job.result(timeout=60)
        await pool.aclose()

    asyncio.run(again())
    assert run_sql("SELECT round, units, coincidences FROM round_agreement_totals ORDER BY round") == stored
