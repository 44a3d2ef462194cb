"""Two API processes, one PostgreSQL, one Redis: votes cast on either reach live subscribers on both,
and the counters are exact after the worker was killed."""

import json
import os
import signal
import sys
import uuid

import httpx
import pytest
from websockets.sync.client import connect

from server.runtime import free_port
from tests.api.examples_helpers import wait_until
from tests.api.test_validation import VALIDATE, _status, _world
from tests.conftest import run_sql


@pytest.fixture
def second_api(stack):
    """Another `dynabench serve` on the same services, as a second replica would run."""
    port = free_port()
    name = f"api-extra-{uuid.uuid4().hex[:6]}"
    proc = stack.group.spawn(
        name,
        [sys.executable, "-m", "server.cli", "serve", "--host", "127.0.0.1", "--port", str(port)],
        env=stack.env,
        log_path=stack.logs / f"{name}.log",
    )
    url = f"http://127.0.0.1:{port}"
    wait_until(lambda: _healthy(url), timeout=90)
    yield url
    proc.terminate()
    proc.wait(timeout=30)


def _healthy(url):
    try:
        return httpx.get(url + "/health", timeout=5).status_code == 200
    except httpx.HTTPError:
        return False


class Subscriber:
    def __init__(self, base_url, token, query, variables):
        self.ws = connect(base_url.replace("http://", "ws://") + "/graphql", subprotocols=["graphql-transport-ws"])
        self.ws.send(json.dumps({"type": "connection_init", "payload": {"Authorization": f"Bearer {token}"}}))
        assert json.loads(self.ws.recv(timeout=30))["type"] == "connection_ack"
        self.ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": {"query": query, "variables": variables}}))

    def next(self):
        while True:
            message = json.loads(self.ws.recv(timeout=60))
            if message["type"] == "ping":
                self.ws.send(json.dumps({"type": "pong"}))
                continue
            assert message["type"] == "next", message
            return message["payload"]["data"]

    def until(self, condition):
        """Read pushes until one satisfies `condition`; returns it."""
        while True:
            data = self.next()
            if condition(data):
                return data


ROUND_STATS = "subscription($r: ID!) { roundStats(roundId: $r) { totalValidated totalCollected } }"
QUEUE = "subscription($r: ID!) { examplesToValidate(roundId: $r) { added { id } removedIds reset } }"
EXAMPLE = "subscription($e: ID!) { exampleUpdated(exampleId: $e) { status } }"


def test_votes_on_either_process_reach_subscribers_on_both(stack, api, target_models, admin_token, second_api):
    author, round_id, _, examples = _world(api, 2)
    example_id = examples[0]["id"]
    first, second = api.sign_up("validator-a"), api.sign_up("validator-b")
    stats_a = Subscriber(stack.api_url, first, ROUND_STATS, {"r": round_id})
    stats_b = Subscriber(second_api, author, ROUND_STATS, {"r": round_id})
    queue_b = Subscriber(second_api, second, QUEUE, {"r": round_id})
    watch_b = Subscriber(second_api, author, EXAMPLE, {"e": example_id})
    assert stats_a.next()["roundStats"] == {"totalValidated": 0, "totalCollected": 2}
    assert stats_b.next()["roundStats"] == {"totalValidated": 0, "totalCollected": 2}
    snapshot = queue_b.next()["examplesToValidate"]
    assert snapshot["reset"] is True and {e["id"] for e in snapshot["added"]} == {e["id"] for e in examples}
    assert watch_b.next()["exampleUpdated"] == {"status": "open"}

    # The worker dies; votes still commit on both processes and their jobs wait in Redis.
    worker = next(stack.group.get(n) for n in stack.group.names if n.startswith("worker") and stack.group.get(n).poll() is None)
    os.kill(worker.pid, signal.SIGKILL)
    worker.wait()
    vote_a = api.raw(VALIDATE, {"e": example_id, "l": "CORRECT"}, token=first).json()["data"]["validateExample"]
    second_client = httpx.post(
        second_api + "/graphql",
        json={"query": VALIDATE, "variables": {"e": example_id, "l": "CORRECT"}},
        headers={"Authorization": f"Bearer {second}"},
        timeout=30,
    )
    vote_b = second_client.json()["data"]["validateExample"]
    assert vote_a["__typename"] == vote_b["__typename"] == "ExampleValidated"
    name = f"worker-{uuid.uuid4().hex[:6]}"
    stack.group.spawn(name, [sys.executable, "-m", "server.cli", "worker"], env=stack.env, log_path=stack.logs / f"{name}.log")

    # The voter on process B sees the example leave their queue once the aggregation ran.
    removed = queue_b.until(lambda d: d["examplesToValidate"]["removedIds"])
    assert removed["examplesToValidate"]["removedIds"] == [example_id]
    # Two matching votes of three needed: still open. The owner decides, through process B.
    owner_vote = httpx.post(
        second_api + "/graphql",
        json={"query": VALIDATE, "variables": {"e": example_id, "l": "CORRECT", "m": "OWNER"}},
        headers={"Authorization": f"Bearer {admin_token}"},
        timeout=30,
    ).json()["data"]["validateExample"]
    assert owner_vote["validation"] == {"label": "CORRECT", "mode": "OWNER"}
    assert watch_b.until(lambda d: d["exampleUpdated"]["status"] != "open")["exampleUpdated"] == {"status": "validated"}
    for stats in (stats_a, stats_b):
        assert stats.until(lambda d: d["roundStats"]["totalValidated"] == 1)["roundStats"] == {
            "totalValidated": 1,
            "totalCollected": 2,
        }

    # Counters equal a recomputation from rows.
    wait_until(lambda: run_sql("SELECT count(*) AS n FROM validations WHERE NOT aggregated")[0]["n"] == 0)
    assert _status(example_id) == "validated"
    assert run_sql("SELECT total_collected, total_validated FROM round_totals WHERE total_collected > 0") == [
        {"total_collected": 2, "total_validated": 1}
    ]
    done = run_sql(
        'SELECT u.username, s.validations_done FROM user_round_stats s JOIN users u ON u.id = s."user" '
        "WHERE s.validations_done > 0 ORDER BY u.username"
    )
    assert done == [
        {"username": "root-admin", "validations_done": 1},
        {"username": "validator-a", "validations_done": 1},
        {"username": "validator-b", "validations_done": 1},
    ]
    for subscriber in (stats_a, stats_b, queue_b, watch_b):
        subscriber.ws.close()
