"""1,000 outbox examples from 20 clients while connections are cut and the API is restarted twice:
exactly 1,000 stored, each once, each judged, every counter equal to a recount from rows."""

import threading
import time
import uuid

import httpx
from strawberry.relay import GlobalID

from tests.api.examples_helpers import current_round
from tests.conftest import run_sql, seed_builtin_tasks
from tests.faults.chaos import SIGNALS, ApiProcess, ChaosProxy, wait_for
from tests.faults.checks import assert_counters_equal_rows

CLIENTS = 20
PER_CLIENT = 50
BATCH = 5
SUBMIT = """mutation($inputs: [CreateExampleInput!]!) { submitExamples(inputs: $inputs) {
  __typename ... on ExampleSubmitted { verdict duplicate example { id } } ... on Error { code message } } }"""


class OutboxClient(threading.Thread):
    """Behaves like the PWA's outbox: sends its queue in batches and retries a batch, with the same
    client UUIDs, until every item has an answer; any transport failure means "try again"."""

    def __init__(self, url: str, token: str, round_id: str, context_ids: list[str], index: int):
        super().__init__(daemon=True)
        self.url, self.token = url, token
        sentences = [f"Client {index} example {i}: the soup was {'good' if i % 2 else 'cold'}." for i in range(PER_CLIENT)]
        self.outbox = [
            {
                "roundId": round_id,
                "contextId": context_ids[(index + i) % len(context_ids)],
                "fields": {"statement": s},
                "label": "positive" if i % 3 else "negative",
                "clientId": str(uuid.uuid4()),
            }
            for i, s in enumerate(sentences)
        ]
        self.answers: dict[str, dict] = {}
        self.transport_failures = 0
        self.duplicates = 0
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            self._drain()
        except BaseException as exc:  # noqa: BLE001 — handed to the main thread, which re-raises it
            self.error = exc

    def _drain(self) -> None:
        deadline = time.monotonic() + 600
        # A fresh connection per request, so every request meets the proxy's dice.
        with httpx.Client(timeout=30, limits=httpx.Limits(max_keepalive_connections=0)) as http:
            while len(self.answers) < len(self.outbox):
                assert time.monotonic() < deadline, f"outbox not drained: {len(self.answers)}/{len(self.outbox)}"
                batch = [item for item in self.outbox if item["clientId"] not in self.answers][:BATCH]
                try:
                    response = http.post(
                        self.url + "/graphql",
                        json={"query": SUBMIT, "variables": {"inputs": batch}},
                        headers={"Authorization": f"Bearer {self.token}"},
                    )
                    results = response.json()["data"]["submitExamples"] if response.status_code == 200 else None
                except (httpx.HTTPError, ValueError):
                    results = None
                if results is None:
                    self.transport_failures += 1
                    time.sleep(0.2)
                    continue
                for item, result in zip(batch, results):
                    assert result["__typename"] == "ExampleSubmitted", result  # nothing else is expected here
                    self.duplicates += result["duplicate"]
                    self.answers[item["clientId"]] = result


def test_a_thousand_outbox_examples_survive_cut_connections_and_two_api_restarts(stack, api, target_models):
    seed_builtin_tasks()
    round_id = current_round(api, "sentiment")
    contexts = api('{ task(code: "sentiment") { currentRound { contexts(first: 10) { edges { node { id } } } } } }')["task"][
        "currentRound"
    ]["contexts"]["edges"]
    context_ids = [edge["node"]["id"] for edge in contexts]
    tokens = [api.sign_up(f"outbox-{i}") for i in range(CLIENTS)]
    server = ApiProcess(stack)
    server.start()
    proxy = ChaosProxy(server.port, cut_request_rate=0.1, cut_reply_rate=0.1).start()
    try:
        clients = [OutboxClient(proxy.url, token, round_id, context_ids, i) for i, token in enumerate(tokens)]
        for client in clients:
            client.start()

        def stored() -> int:
            return run_sql("SELECT count(*) AS n FROM examples")[0]["n"]

        for fraction, how in ((1 / 3, "graceful"), (2 / 3, "killed")):
            wait_for(  # the predicate runs inside this iteration, so it sees this fraction
                lambda: stored() >= fraction * CLIENTS * PER_CLIENT or not any(c.is_alive() for c in clients),  # noqa: B023
                timeout=600,
                what=f"{fraction:.0%} of the examples",
            )
            server.restart(SIGNALS[how])
        for client in clients:
            client.join(timeout=900)
        errors = [c.error for c in clients if c.error is not None]
        assert not errors, errors[0]
    finally:
        proxy.stop()
        server.stop()

    # The chaos really happened, and the clients really retried.
    assert server.restarts == 2
    assert proxy.stats.cut_requests > 0 and proxy.stats.cut_replies > 0, proxy.stats
    assert sum(c.transport_failures for c in clients) > 0
    assert sum(c.duplicates for c in clients) > 0  # replies lost after the work was done were answered from storage

    client_ids = [item["clientId"] for c in clients for item in c.outbox]
    rows = run_sql('SELECT client_id::text AS client_id, id, "user", fooled, status FROM examples')
    assert len(rows) == CLIENTS * PER_CLIENT == len({r["client_id"] for r in rows})
    assert {r["client_id"] for r in rows} == set(client_ids)
    # Each answer names the stored example of its own client UUID.
    by_client_id = {r["client_id"]: r for r in rows}
    for client in clients:
        for client_id, answer in client.answers.items():
            assert GlobalID.from_id(answer["example"]["id"]).node_id == str(by_client_id[client_id]["id"])
    # Every example has a verdict once Triton answers (Triton stayed up: no pending should remain).
    wait_for(
        lambda: run_sql("SELECT count(*) AS n FROM examples WHERE status = 'pending'")[0]["n"] == 0,
        timeout=300,
        what="pending examples to be judged",
    )
    assert run_sql("SELECT count(*) AS n FROM examples WHERE fooled IS NULL")[0]["n"] == 0
    assert_counters_equal_rows()
