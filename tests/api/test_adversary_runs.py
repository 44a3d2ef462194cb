"""Unattended adversary runs (issue #31 point 5, docs/design.md §4.1f) through GraphQL against the real stack: a
sentiment classifier task whose generator is the demo generative model served by Triton and whose target is the real
sentiment model. The run's examples are the machine account's, marked machine-made, judged by the target and handed
to a validator by the validation queue; an owner-mode vote validates one and the run's figures count it; a re-run of
the job writes nothing twice and continues from the rows; non-owners are refused; a generator that is down fails the
run with a readable reason, and so does a target that is down. A generative task's run: one-exchange conversations
with the target, submitted."""

from __future__ import annotations

import asyncio
import json
import os
import uuid

import httpx
import redis
from strawberry.relay import GlobalID

from tests.api.conversations_helpers import demo_copy, generative_config, generative_task
from tests.api.examples_helpers import wait_until
from tests.api.test_suggestions import EXPORT, _sentiment_task
from tests.conftest import run_sql

RUN = """id status requested produced fooled validated validatedFooled awaitingValidation refused generator error
  startedBy startedAt finishedAt"""
START = f"""mutation($i: StartAdversaryRunInput!) {{ startAdversaryRun(input: $i) {{ __typename
  ... on AdversaryRunStarted {{ duplicate run {{ {RUN} }} }}
  ... on InputError {{ message fields {{ field message }} }} ... on Error {{ code message }} }} }}"""
CANCEL = f"""mutation($r: ID!) {{ cancelAdversaryRun(runId: $r) {{ __typename
  ... on AdversaryRunCancelled {{ run {{ {RUN} }} }} ... on Error {{ code message }} }} }}"""
GET = f"query($id: ID!) {{ adversaryRun(id: $id) {{ {RUN} }} }}"
ROUND_RUNS = f"query($c: String!) {{ task(code: $c) {{ currentRound {{ adversaryRuns {{ {RUN} }} }} }} }}"
QUEUE = """query($r: ID!) { nextExamplesToValidate(roundId: $r, first: 20) { id status fooled input
  machineMade { runId source sourceVersion } assistance { kind } } }"""
LISTED = """query($r: ID!) { examplesToValidate(roundId: $r, first: 20) { edges { node { id machineMade { runId } } } } }"""
VALIDATE = """mutation($e: ID!) { validateExample(exampleId: $e, label: CORRECT, mode: OWNER) { __typename
  ... on Error { code message } } }"""


def _start(api, token, round_id, count, client_id=None, generator=None):
    variables = {"i": {"roundId": round_id, "clientId": str(client_id or uuid.uuid4()), "count": count, "generator": generator}}
    return api(START, variables, token=token)["startAdversaryRun"]


def _finished(api, token, run_id):
    def done():
        run = api(GET, {"id": run_id}, token=token)["adversaryRun"]
        return run if run["status"] in ("DONE", "FAILED", "CANCELLED") else None

    return wait_until(done, timeout=240, interval=0.3)


def _rerun_job(run_pk: int) -> str:
    """The real job once more through the worker (as arq retries it after a crash)."""
    from arq import create_pool
    from arq.connections import RedisSettings

    from server.annotation.adversary import jobs as run_jobs
    from server.core.jobs import job_name

    async def go():
        pool = await create_pool(RedisSettings.from_dsn(os.environ["REDIS_URL"]))
        job = await pool.enqueue_job(job_name(run_jobs.run_adversary), run_pk)
        result = await job.result(timeout=240)
        await pool.aclose()
        return result

    return asyncio.run(go())


def test_an_unattended_run_fills_the_validation_queue(stack, api, target_models):
    generator = target_models["chat_demo"]
    owner, round_id = _sentiment_task(api, target_models, "adv_sent", {"model": generator, "count": 3})
    validator, stranger = api.sign_up("adv_validator"), api.sign_up("adv_stranger")

    # Non-owners are refused and nothing is written; anonymous callers are told to sign in; a count out of range.
    refused = _start(api, stranger, round_id, 2)
    assert refused["__typename"] == "PermissionError", refused
    assert (
        api(START, {"i": {"roundId": round_id, "clientId": str(uuid.uuid4()), "count": 2}})["startAdversaryRun"]["__typename"]
        == "AuthenticationError"
    )
    too_many = _start(api, owner, round_id, 201)
    assert too_many["__typename"] == "InputError" and [f["field"] for f in too_many["fields"]] == ["count"], too_many
    assert run_sql("SELECT count(*) AS n FROM adversary_runs")[0]["n"] == 0

    # The owner's examples-per-minute window is full for a moment (the suite's limit is 1,000,000): the job waits for
    # it (queued again for the seconds it names) instead of failing, and the run still ends done.
    owner_id = run_sql("SELECT id FROM users WHERE username = 'owner_adv_sent'")[0]["id"]
    limits = redis.Redis.from_url(os.environ["REDIS_URL"])
    limits.set(f"dynabench:limit:submit_example:60:account:{owner_id}", 1_000_000, px=2500)
    client_id = uuid.uuid4()
    started = _start(api, owner, round_id, 3, client_id)
    assert started["__typename"] == "AdversaryRunStarted" and not started["duplicate"], started
    run_id = started["run"]["id"]
    again = _start(api, owner, round_id, 3, client_id)  # a retried request answers the same run
    assert again["duplicate"] and again["run"]["id"] == run_id
    assert api.errors(GET, {"id": run_id}, token=stranger)[0]["extensions"]["code"] == "NOT_FOUND"
    assert api(CANCEL, {"r": run_id}, token=stranger)["cancelAdversaryRun"]["__typename"] == "NotFoundError"

    run = _finished(api, owner, run_id)
    assert run["status"] == "DONE" and run["produced"] == 3 and run["error"] == "", run
    assert run["generator"] == generator and run["startedBy"] == "owner_adv_sent" and run["finishedAt"]
    examples = run_sql(
        "SELECT e.id, e.client_id, e.status, e.fooled, e.assisted_by::text AS assisted, u.username FROM examples e "
        'JOIN users u ON u.id = e."user" ORDER BY e.id'
    )
    assert len(examples) == 3 and {e["username"] for e in examples} == {"~machine"}
    assert all(json.loads(e["assisted"])["kind"] == "machine" for e in examples)
    # Each write counted against the owner's per-account submission limit (one window, opened by the run).
    counter = limits.get(f"dynabench:limit:submit_example:60:account:{owner_id}")
    assert counter is not None and int(counter) == 3

    # In the validation queue like people's examples, marked machine-made.
    open_ids = {str(e["id"]) for e in examples if e["status"] == "open"}
    assert open_ids and run["fooled"] >= len(open_ids) and run["awaitingValidation"] == len(open_ids), (run, examples)
    listed = api(LISTED, {"r": round_id}, token=validator)["examplesToValidate"]["edges"]
    assert {GlobalID.from_id(e["node"]["id"]).node_id for e in listed} == open_ids, listed
    assert all(e["node"]["machineMade"]["runId"] == run_id for e in listed)
    queue = api(QUEUE, {"r": round_id}, token=validator)["nextExamplesToValidate"]
    assert {GlobalID.from_id(e["id"]).node_id for e in queue} == open_ids, queue
    for item in queue:
        assert item["machineMade"] == {
            "runId": run_id,
            "source": generator,
            "sourceVersion": item["machineMade"]["sourceVersion"],
        }
        assert item["assistance"] is None and item["input"]["label"] in ("negative", "positive", "neutral")
    # The owner is not the author: an owner-mode vote validates one at once, and the run counts it.
    voted = api(VALIDATE, {"e": queue[0]["id"]}, token=owner)
    assert voted["validateExample"]["__typename"] == "ExampleValidated", voted
    counted = wait_until(lambda: (r := api(GET, {"id": run_id}, token=owner)["adversaryRun"])["validated"] == 1 and r)
    assert counted["validatedFooled"] == 1 and counted["awaitingValidation"] == len(open_ids) - 1
    shown = api(ROUND_RUNS, {"c": "adv_sent"}, token=owner)["task"]["currentRound"]["adversaryRuns"]
    assert [r["id"] for r in shown] == [run_id] and shown[0]["validated"] == 1
    assert api(ROUND_RUNS, {"c": "adv_sent"}, token=stranger)["task"]["currentRound"]["adversaryRuns"] == []
    # The machine account is not ranked with people; the export carries the marker.
    board = api('query { userLeaderboard(taskCode: "adv_sent") { user { username } } }', token=owner)["userLeaderboard"]
    assert all(row["user"]["username"] != "~machine" for row in board)
    link = api(EXPORT, {"r": round_id}, token=owner)["exportRound"]
    lines = [json.loads(line) for line in httpx.get(stack.api_url + link["url"], timeout=60).text.splitlines()]
    assert len(lines) == 3 and all(line["machine_made"] and line["assistance"]["kind"] == "machine" for line in lines)

    # The job again (as after a crash): nothing is written twice; asked for more, it continues from the rows, under
    # the client UUIDs the run's indexes give.
    run_pk = int(GlobalID.from_id(run_id).node_id)
    run_sql("UPDATE adversary_runs SET status = 'running' WHERE id = $1", run_pk)
    assert _rerun_job(run_pk) == "done"
    assert run_sql("SELECT count(*) AS n FROM examples")[0]["n"] == 3
    run_sql("UPDATE adversary_runs SET status = 'running', requested = 5 WHERE id = $1", run_pk)
    assert _rerun_job(run_pk) == "done"
    stored = {r["client_id"] for r in run_sql("SELECT client_id FROM examples")}
    assert stored == {uuid.uuid5(client_id, f"example:{i}") for i in range(5)}

    # Cancelling a finished run leaves it as it ended; while a run is queued or running, another is refused.
    cancelled = api(CANCEL, {"r": run_id}, token=owner)["cancelAdversaryRun"]["run"]
    assert cancelled["status"] == "DONE"
    run_sql("UPDATE adversary_runs SET status = 'queued' WHERE id = $1", run_pk)  # as if still waiting for a worker
    assert _start(api, owner, round_id, 2)["__typename"] == "ConflictError"
    assert api(CANCEL, {"r": run_id}, token=owner)["cancelAdversaryRun"]["run"]["status"] == "CANCELLED"

    # A generator that is down fails the run with the reason, writing nothing.
    with demo_copy(stack, generator, "adv_gen_copy") as copy:
        down_owner, down_round = _sentiment_task(api, target_models, "adv_down", {"model": copy})
    failed = _finished(api, down_owner, _start(api, down_owner, down_round, 2)["run"]["id"])
    assert failed["status"] == "FAILED" and "generator" in failed["error"] and failed["produced"] == 0, failed
    # The owner may name another generator for a run: one the target Triton serves (checked live), or it is refused.
    unknown = _start(api, down_owner, down_round, 1, generator="no_such_model")
    assert unknown["__typename"] == "InputError" and [f["field"] for f in unknown["fields"]] == ["generator"], unknown
    named = _finished(api, down_owner, _start(api, down_owner, down_round, 1, generator=generator)["run"]["id"])
    assert named["status"] == "DONE" and named["generator"] == generator and named["produced"] == 1, named
    # A target that is down, likewise (the generator answers; the target is asked before anything is stored).
    with demo_copy(stack, target_models["sentiment"], "adv_target_copy") as target:
        gone_owner, gone_round = _sentiment_task(api, {"sentiment": target}, "adv_gone", {"model": generator})
    gone = _finished(api, gone_owner, _start(api, gone_owner, gone_round, 2)["run"]["id"])
    assert gone["status"] == "FAILED" and gone["error"].startswith("The target model could not answer"), gone
    assert gone["produced"] == 0


def test_a_generative_run_submits_conversations(stack, api, target_models):
    demo = target_models["chat_demo"]
    config = generative_config(max_turns=1)
    config["suggestions"] = {"generator": {"model": demo, "temperature": 0.0, "max_tokens": 32, "count": 2}}
    owner, round_id = generative_task(api, "adv_chat", demo, config)
    started = _start(api, owner, round_id, 2)
    assert started["__typename"] == "AdversaryRunStarted", started
    run = _finished(api, owner, started["run"]["id"])
    assert run["status"] == "DONE" and run["produced"] == 2, run
    rows = run_sql("SELECT e.status, e.fooled, e.input::text AS input, c.id AS conversation FROM examples e "
                   "JOIN conversations c ON c.example = e.id")  # fmt: skip
    assert len(rows) == 2
    for row in rows:
        messages = json.loads(row["input"])["messages"]
        assert [m["role"] for m in messages][-2:] == ["user", "assistant"] and messages[-1]["content"]
        assert row["status"] == "open" and row["fooled"] is True  # ask_user: the machine claims, validators decide
    validator = api.sign_up("adv_chat_validator")
    queue = api(QUEUE, {"r": round_id}, token=validator)["nextExamplesToValidate"]
    assert len(queue) == 2 and all(item["machineMade"]["source"] == demo for item in queue)
