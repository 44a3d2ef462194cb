"""Services go away and come back: Triton (20 s, FAULTS_TRITON_OUTAGE_S), Redis, PostgreSQL. Nothing is lost, and the
API and the worker recover by themselves."""

import json
import os
import threading
import time

import httpx
from websockets.sync.client import connect

from tests.api.examples_helpers import CREATE, NEXT_CONTEXT, current_round, submit
from tests.api.test_validation import VALIDATE, _status, _world
from tests.conftest import run_sql, seed_builtin_tasks, target_triton_stopped
from tests.faults.chaos import wait_for
from tests.faults.checks import assert_counters_equal_rows, kill_workers, live_workers, start_worker

# Long enough for several examples to be written while Triton is away; FAULTS_TRITON_OUTAGE_S=60 makes it a minute.
TRITON_OUTAGE_S = float(os.environ.get("FAULTS_TRITON_OUTAGE_S", "12"))


class Annotator(threading.Thread):
    """Writes examples one after another until told to stop; records every answer."""

    def __init__(self, url, token, round_id, context_id, name):
        super().__init__(daemon=True)
        self.url, self.token, self.round_id, self.context_id, self.name = url, token, round_id, context_id, name
        self.answers, self.failures, self.stop = [], [], threading.Event()

    def run(self):
        with httpx.Client(base_url=self.url, timeout=60) as http:
            i = 0
            while not self.stop.is_set():
                variables = {
                    "i": {
                        "roundId": self.round_id,
                        "contextId": self.context_id,
                        "label": "positive",
                        "fields": {"statement": f"{self.name} wrote sentence {i}, a rather pleasant one."},
                        "clientId": f"{self.name[:8]:0>8}-0000-4000-8000-{i:012d}",
                    }
                }
                response = http.post(
                    "/graphql", json={"query": CREATE, "variables": variables}, headers={"Authorization": f"Bearer {self.token}"}
                )
                if response.status_code != 200 or response.json().get("errors"):
                    self.failures.append(response.text)
                else:
                    self.answers.append((time.monotonic(), response.json()["data"]["createExample"]))
                i += 1
                time.sleep(0.1)


def test_triton_stopped_loses_no_example_and_judges_the_pending_ones(stack, api, target_models):
    seed_builtin_tasks()
    round_id = current_round(api, "sentiment")
    writers = []
    for n in range(4):
        token = api.sign_up(f"writer{n}")
        context_id = api(NEXT_CONTEXT, {"r": round_id}, token=token)["nextContext"]["id"]
        writers.append(Annotator(stack.api_url, token, round_id, context_id, f"{n:08x}"))
    for writer in writers:
        writer.start()
    try:
        # Every writer is answered before the outage (a positive signal, not a fixed pause) ...
        wait_for(lambda: all(w.answers for w in writers), timeout=120, what="every writer's first answer", interval=0.1)
        with target_triton_stopped(stack):
            stopped_at = time.monotonic()
            # The API reports the outage but stays ready for traffic (examples wait as pending), and alive.
            wait_for(lambda: httpx.get(stack.api_url + "/health", timeout=10).status_code == 503, timeout=60, what="/health 503")
            ready = httpx.get(stack.api_url + "/health/ready", timeout=10)
            assert ready.status_code == 200 and not ready.json()["services"]["triton"]["ok"], ready.text
            assert httpx.get(stack.api_url + "/health/live", timeout=10).json() == {"status": "alive"}
            time.sleep(max(0.0, TRITON_OUTAGE_S - (time.monotonic() - stopped_at)))
            restarting_at = time.monotonic()
        # ... and again once Triton is back.
        back_at = time.monotonic()
        wait_for(
            lambda: all(any(at > back_at for at, _ in w.answers) for w in writers),
            timeout=120,
            what="every writer's answer after the restart",
            interval=0.1,
        )
    finally:
        for writer in writers:
            writer.stop.set()
        for writer in writers:
            writer.join(timeout=120)

    assert [f for w in writers for f in w.failures] == []
    answers = [(at, a) for w in writers for at, a in w.answers]
    assert all(a["__typename"] == "ExampleSubmitted" and a["example"] for _, a in answers)
    during = [a for at, a in answers if stopped_at + 1 < at < restarting_at]
    assert during and all(a["verdict"] == "PENDING" for a in during)
    assert "pending" in during[0]["message"]
    # Every answer is a stored example, each once.
    assert run_sql("SELECT count(*) AS n FROM examples")[0]["n"] == len(answers)
    # The pending ones are judged after Triton returns (woken when the model answers readiness).
    wait_for(
        lambda: run_sql("SELECT count(*) AS n FROM examples WHERE status = 'pending'")[0]["n"] == 0,
        timeout=240,
        what="the pending examples to be judged",
    )
    rows = run_sql("SELECT fooled, model_version, model_output FROM examples")
    assert all(r["fooled"] is not None and r["model_version"] == "1" and r["model_output"] for r in rows)
    assert_counters_equal_rows()


def _arq_queue(stack) -> list[str]:
    import redis

    client = redis.Redis.from_url(stack.env["REDIS_URL"])
    try:
        return sorted(job.decode() for job in client.zrange("arq:queue", 0, -1))
    finally:
        client.close()


class Subscription:
    def __init__(self, url, token, query, variables):
        self.ws = connect(url.replace("http://", "ws://") + "/graphql", subprotocols=["graphql-transport-ws"])
        self.ws.send(json.dumps({"type": "connection_init", "payload": {"Authorization": f"Bearer {token}"}}))
        assert json.loads(self.ws.recv(timeout=30))["type"] == "connection_ack"
        self.ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": {"query": query, "variables": variables}}))

    def until(self, condition, timeout=120):
        deadline = time.monotonic() + timeout
        while True:
            message = json.loads(self.ws.recv(timeout=max(0.1, deadline - time.monotonic())))
            if message["type"] == "ping":
                self.ws.send(json.dumps({"type": "pong"}))
                continue
            assert message["type"] == "next", message
            if condition(message["payload"]["data"]):
                return message["payload"]["data"]


ROUND_STATS = "subscription($r: ID!) { roundStats(roundId: $r) { totalValidated totalCollected } }"


def test_redis_restart_loses_no_queued_job_and_subscriptions_resume(stack, api, target_models):
    author, round_id, _, examples = _world(api, 2)
    watcher = Subscription(stack.api_url, author, ROUND_STATS, {"r": round_id})
    assert watcher.until(lambda d: True)["roundStats"] == {"totalValidated": 0, "totalCollected": 2}
    # With no worker running, three votes leave their aggregation jobs queued in Redis.
    kill_workers(stack)
    try:
        for n in range(3):
            vote = api(VALIDATE, {"e": examples[0]["id"], "l": "CORRECT"}, token=api.sign_up(f"validator{n}"))
            assert vote["validateExample"]["__typename"] == "ExampleValidated"
        queued = _arq_queue(stack)
        assert len(queued) >= 3
        stack.redis.restart()
        # The queue came back from the append-only file, job for job.
        assert set(queued) <= set(_arq_queue(stack))
    finally:
        start_worker(stack)
    # The API's clients reconnect by themselves, and the live view re-reads its state after the gap.
    assert watcher.until(lambda d: d["roundStats"]["totalValidated"] == 1)["roundStats"] == {
        "totalValidated": 1,
        "totalCollected": 2,
    }
    assert _status(examples[0]["id"]) == "validated"
    # Later events flow through the new connection too.
    api(VALIDATE, {"e": examples[1]["id"], "l": "CORRECT", "m": "OWNER"}, token=_admin(api))
    assert watcher.until(lambda d: d["roundStats"]["totalValidated"] == 2)["roundStats"]["totalValidated"] == 2
    watcher.ws.close()
    assert_counters_equal_rows()


def _admin(api) -> str:
    token = api.sign_up("owner-admin")
    run_sql("UPDATE users SET is_admin = true WHERE username = 'owner-admin'")
    return token


def test_postgres_restart_the_api_and_the_worker_recover_their_pools(stack, api, target_models):
    author, round_id, context_id, examples = _world(api, 1)
    assert len(live_workers(stack)) >= 1
    stack.postgres.restart()
    # Requests after the restart succeed without restarting anything (stale pooled connections are
    # replaced); each answers correctly, none with an internal error.
    for i in range(12):  # more than the pool size, so that every pooled connection is exercised
        result = submit(api, author, round_id, context_id, {"statement": f"After the restart, number {i}."}, label="positive")
        assert result["__typename"] == "ExampleSubmitted", result
    assert api("{ me { username } }", token=author)["me"]["username"] == "author"
    # The worker's pool recovered too: votes are aggregated.
    for n in range(3):
        api(VALIDATE, {"e": examples[0]["id"], "l": "CORRECT"}, token=api.sign_up(f"validator{n}"))
    wait_for(lambda: _status(examples[0]["id"]) == "validated", timeout=120, what="aggregation after the restart")
    assert_counters_equal_rows()
    health = httpx.get(stack.api_url + "/health", timeout=10).json()
    assert health["status"] == "ok", health


def test_a_retraction_commits_and_says_so_while_redis_is_down(stack, api, target_models):
    """Its live news (counters, queues) are best effort: Redis being away does not turn a stored retraction into an
    error; the news goes out once Redis is back."""
    author, round_id, _, examples = _world(api, 1)
    watcher = Subscription(stack.api_url, author, ROUND_STATS, {"r": round_id})
    assert watcher.until(lambda d: True)["roundStats"]["totalCollected"] == 1
    stack.redis.stop()
    try:
        retract = (
            "mutation($e: ID!) { retractExample(exampleId: $e) { __typename ... on ExampleChanged { example { retracted } } } }"
        )
        answer = api(retract, {"e": examples[0]["id"]}, token=author)["retractExample"]
    finally:
        stack.redis.start()
    assert answer == {"__typename": "ExampleChanged", "example": {"retracted": True}}
    assert watcher.until(lambda d: d["roundStats"]["totalCollected"] == 0)["roundStats"]["totalCollected"] == 0
    watcher.ws.close()
