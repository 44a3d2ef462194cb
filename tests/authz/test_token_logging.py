"""Secrets never reach the logs: passwords, session tokens and API tokens, sent every way a client sends them
(JSON bodies, the Authorization header, a websocket's connection_init), right and wrong, to the test stack's
API and to an API process with the most logging the product offers (--verbose, ACCESS_LOG=1); then every log
file of the stack (APIs, worker) is searched for them."""

import json
import uuid

import httpx
from websockets.sync.client import connect

from tests.api.examples_helpers import wait_until
from tests.authz.conftest import extra_api
from tests.conftest import GraphQLClient, run_sql, seed_builtin_tasks

LOG_IN = "mutation($i: LogInInput!) { logIn(input: $i) { __typename ... on AuthPayload { token } ... on Error { code } } }"
CREATE_TOKEN = """mutation($i: CreateApiTokenInput!) { createApiToken(input: $i) {
  __typename ... on ApiTokenCreated { token apiToken { id prefix } } } }"""
REVOKE = "mutation($t: ID!) { revokeApiToken(tokenId: $t) { __typename } }"


def _use_every_way(base_url: str, secrets: list[str]) -> None:
    client = GraphQLClient(base_url)
    username, password = f"logcheck-{uuid.uuid4().hex[:8]}", f"pw-{uuid.uuid4().hex}"
    wrong_password = f"pw-{uuid.uuid4().hex}"
    session = client.sign_up(username, password)
    assert client(LOG_IN, {"i": {"username": username, "password": wrong_password}})["logIn"]["code"] == "INVALID_CREDENTIALS"
    second_session = client(LOG_IN, {"i": {"username": username, "password": password}})["logIn"]["token"]
    created = client(CREATE_TOKEN, {"i": {"name": "dashboard", "scopes": ["READ", "ANNOTATE"]}}, token=session)["createApiToken"]
    token = created["token"]
    secrets += [password, wrong_password, session, second_session, token, token.split("_", 2)[2]]

    assert client("{ me { username } }", token=token) == {"me": {"username": username}}
    assert client("{ me { username } }", token=second_session) == {"me": {"username": username}}
    forged = token[:-6] + ("A" * 6 if not token.endswith("AAAAAA") else "B" * 6)
    secrets.append(forged)
    assert client.errors("{ me { username } }", token=forged)[0]["extensions"]["code"] == "AUTHENTICATION_FAILED"

    round_id = client('{ task(code: "sentiment") { currentRound { id } } }', token=token)["task"]["currentRound"]["id"]
    ws_url = base_url.replace("http://", "ws://") + "/graphql"
    for bearer in (token, session):
        with connect(ws_url, subprotocols=["graphql-transport-ws"]) as ws:
            ws.send(json.dumps({"type": "connection_init", "payload": {"Authorization": f"Bearer {bearer}"}}))
            assert json.loads(ws.recv(timeout=30))["type"] == "connection_ack"
            ws.send(
                json.dumps(
                    {
                        "id": "1",
                        "type": "subscribe",
                        "payload": {
                            "query": "subscription($r: ID!) { roundStats(roundId: $r) { number } }",
                            "variables": {"r": round_id},
                        },
                    }
                )
            )
            assert json.loads(ws.recv(timeout=30))["payload"]["data"] == {"roundStats": {"number": 1}}

    assert client(REVOKE, {"t": created["apiToken"]["id"]}, token=session)["revokeApiToken"]["__typename"] == "ApiTokenRevoked"
    assert client.errors("{ me { username } }", token=token)[0]["extensions"]["code"] == "AUTHENTICATION_FAILED"
    client.http.close()


def _wait_for_later_log_lines(stack) -> None:
    """The session's API and workers write their logs as they go: wait until the API and a worker have each written
    a line of an event that happened after everything above, so every earlier line is in its file before the files
    are searched. (Earlier tests may have replaced worker-0, so every worker log of the stack is watched.)"""
    api_log = stack.logs / "api-0.log"
    worker_logs = sorted(stack.logs.glob("worker*.log"))
    lines_before = {log: len(log.read_text(errors="replace").splitlines()) for log in worker_logs}
    marker = f"logcheck-done-{uuid.uuid4().hex}"
    assert httpx.get(stack.api_url + "/health", headers={"X-Request-ID": marker}, timeout=30).headers["x-request-id"] == marker
    wait_until(lambda: marker in api_log.read_text(errors="replace"), timeout=30)  # its access-log line

    def a_worker_finished_a_later_job() -> bool:  # arq logs "<seconds>s ← <job> ● <result>" when a job completes
        for log in worker_logs:
            later = log.read_text(errors="replace").splitlines()[lines_before[log] :]
            if any(" ← " in line for line in later):
                return True
        return False

    wait_until(a_worker_finished_a_later_job, timeout=60)  # the cron jobs run every few seconds


def test_tokens_and_passwords_are_never_logged(stack, api):
    seed_builtin_tasks()
    secrets: list[str] = []
    _use_every_way(stack.api_url, secrets)
    with extra_api(stack, {"ACCESS_LOG": "1"}, cli_options=("--verbose",)) as (url, chatty_log):
        _use_every_way(url, secrets)
    assert run_sql("SELECT count(*) AS n FROM api_tokens WHERE revoked_at IS NOT NULL")[0]["n"] == 2
    _wait_for_later_log_lines(stack)

    chatty = chatty_log.read_text(errors="replace")
    assert chatty.count("/graphql") >= 10, chatty[-2000:]  # it did log the requests
    logs = sorted(stack.logs.glob("*.log"))
    assert {"api-0.log", "worker-0.log", chatty_log.name} <= {p.name for p in logs}
    for path in logs:
        text = path.read_text(errors="replace")
        leaked = [s[:12] + "…" for s in secrets if s in text]
        assert not leaked, f"{path.name} contains secrets starting {leaked}"
