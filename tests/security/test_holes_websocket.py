"""Issue #15 point 6.2: a revoked or expired credential no longer works on an open WebSocket. The attack: open a
graphql-transport-ws socket, then keep using it (mutations included) after the token was revoked or the session
expired. Now credentials are re-checked on every operation, sockets close when their API token is revoked (an
event through Redis, heard by every API process) or their session expires, and mutations go over HTTP only."""

from server.graphql.core.websocket import CLOSE_CREDENTIALS
from tests.authz.conftest import extra_api
from tests.conftest import run_sql, seed_builtin_tasks
from tests.security.holes_helpers import Client, Socket

ROUND_STATS = "subscription($r: ID!) { roundStats(roundId: $r) { number } }"
CREATE_TOKEN = """mutation($i: CreateApiTokenInput!) { createApiToken(input: $i) {
  __typename ... on ApiTokenCreated { token apiToken { id } } } }"""
REVOKE = "mutation($t: ID!) { revokeApiToken(tokenId: $t) { __typename } }"


def _round(api) -> str:
    return api('{ task(code: "sentiment") { currentRound { id } } }')["task"]["currentRound"]["id"]


def _api_token(api, session: str) -> tuple[str, str]:
    created = api(CREATE_TOKEN, {"i": {"name": "live dashboard", "scopes": ["READ", "ANNOTATE"]}}, token=session)[
        "createApiToken"
    ]
    return created["token"], created["apiToken"]["id"]


def _live(url: str, token: str, round_id: str) -> Socket:
    socket = Socket(url, token)
    assert socket.acknowledged()
    socket.subscribe(ROUND_STATS, {"r": round_id})
    message = socket.receive()
    assert message["type"] == "next" and message["payload"]["data"] == {"roundStats": {"number": 1}}, message
    return socket


def test_revoking_an_api_token_closes_its_sockets_on_every_api_process(stack, api):
    seed_builtin_tasks()
    session = api.sign_up("dashboard-owner")
    token, token_id = _api_token(api, session)
    round_id = _round(api)
    with extra_api(stack, {}) as (other_url, _):
        here, there = _live(stack.api_url, token, round_id), _live(other_url, token, round_id)
        unrelated = _live(other_url, session, round_id)  # the same account's session is not revoked
        assert api(REVOKE, {"t": token_id}, token=session)["revokeApiToken"]["__typename"] == "ApiTokenRevoked"
        for socket in (here, there):
            code, reason = socket.closed_with()
            assert code == CLOSE_CREDENTIALS and "revoked" in reason, (code, reason)
        unrelated.subscribe("{ me { username } }")  # still open, and still answering
        assert unrelated.receive()["payload"]["data"] == {"me": {"username": "dashboard-owner"}}
        unrelated.close()
    # A new socket with the revoked token is refused when it opens.
    refused = Socket(stack.api_url, token)
    assert refused.closed_with()[0] == CLOSE_CREDENTIALS


def test_every_operation_on_a_socket_checks_the_credentials_again(stack, api):
    seed_builtin_tasks()
    session = api.sign_up("dashboard-owner")
    token, _ = _api_token(api, session)
    socket = _live(stack.api_url, token, _round(api))
    # Revoked behind the API's back (no event announces it): the next operation on the socket finds out.
    run_sql("UPDATE api_tokens SET revoked_at = now()")
    socket.subscribe("{ me { username } }")
    code, reason = socket.closed_with()
    assert code == CLOSE_CREDENTIALS and "unknown or revoked" in reason, (code, reason)


def test_a_session_socket_closes_when_the_session_expires(stack, api):
    seed_builtin_tasks()
    round_id = _round(api)
    with extra_api(stack, {"JWT_TTL_SECONDS": "3"}) as (url, _):
        client = Client(url)
        session = client.token("short-session")
        socket = _live(url, session, round_id)
        code, reason = socket.closed_with()  # closed by the server once the JWT expires, without any new message
        assert code == CLOSE_CREDENTIALS and "expired" in reason, (code, reason)
        assert Socket(url, session).closed_with()[0] == CLOSE_CREDENTIALS  # and refused from then on
        client.close()


def test_mutations_are_refused_over_the_websocket(stack, api):
    session = api.sign_up("socket-writer")
    socket = Socket(stack.api_url, session)
    assert socket.acknowledged()
    operation = socket.subscribe(CREATE_TOKEN, {"i": {"name": "sneaky", "scopes": ["ADMIN"]}})
    message = socket.receive()
    assert message["type"] == "error" and message["id"] == operation, message
    assert message["payload"][0]["message"].startswith("Send mutations over HTTP")
    assert message["payload"][0]["extensions"]["code"] == "BAD_REQUEST"
    assert run_sql("SELECT count(*) AS n FROM api_tokens")[0]["n"] == 0
    # Queries and subscriptions are still served on the same socket.
    socket.subscribe("{ me { username } }")
    assert socket.receive()["payload"]["data"] == {"me": {"username": "socket-writer"}}
    socket.close()


def test_invalid_credentials_are_refused_when_the_socket_opens(stack, api):
    for bearer in ("not-a-token", "dbk_0123456789ab_" + "A" * 43):
        code, _ = Socket(stack.api_url, bearer).closed_with()
        assert code == CLOSE_CREDENTIALS
    anonymous = Socket(stack.api_url, None)  # no credentials at all: anonymous, as before
    assert anonymous.acknowledged()
    anonymous.close()
