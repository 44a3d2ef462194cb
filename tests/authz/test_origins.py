"""CORS and websocket allowed origins are configurable (ALLOWED_ORIGINS): a page on an allowed origin may call
the API and open its graphql-transport-ws socket; a page on any other origin may do neither. Non-browser
clients (no Origin header) are unaffected."""

import json

import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from tests.authz.conftest import extra_api
from tests.conftest import seed_builtin_tasks

ALLOWED = "https://annotate.example.org"
LOCAL_DEV = "http://localhost:5173"
OTHER = "https://evil.example.net"
ROUND = '{ task(code: "sentiment") { currentRound { id } } }'


@pytest.fixture(scope="module")
def configured_api(stack):
    # As an operator would write it: spaces, a trailing slash.
    with extra_api(stack, {"ALLOWED_ORIGINS": f"{ALLOWED}, {LOCAL_DEV}/"}) as (url, _):
        yield url


def _preflight(url, origin):
    return httpx.options(
        url + "/graphql",
        headers={
            "Origin": origin,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization, content-type",
        },
        timeout=10,
    )


def _post(url, origin):
    return httpx.post(url + "/graphql", json={"query": ROUND}, headers={"Origin": origin}, timeout=10)


def _subscribe(url, origin):
    """The first push of roundStats over a socket opened from a page on `origin`."""
    round_id = httpx.post(url + "/graphql", json={"query": ROUND}, timeout=10).json()["data"]["task"]["currentRound"]["id"]
    with connect(
        url.replace("http://", "ws://") + "/graphql", subprotocols=["graphql-transport-ws"], origin=origin, open_timeout=10
    ) as ws:
        ws.send(json.dumps({"type": "connection_init", "payload": {}}))
        assert json.loads(ws.recv(timeout=10))["type"] == "connection_ack"
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
        return json.loads(ws.recv(timeout=10))["payload"]["data"]


@pytest.mark.parametrize("origin", [ALLOWED, LOCAL_DEV])
def test_an_allowed_origin_gets_cors_headers(api, configured_api, origin):
    seed_builtin_tasks()
    preflight = _preflight(configured_api, origin)
    assert preflight.status_code in (200, 204), preflight.text
    assert preflight.headers["access-control-allow-origin"] == origin
    allowed_headers = preflight.headers["access-control-allow-headers"].lower()
    assert "authorization" in allowed_headers and "content-type" in allowed_headers
    assert "POST" in preflight.headers["access-control-allow-methods"]
    answer = _post(configured_api, origin)
    assert answer.status_code == 200 and answer.headers["access-control-allow-origin"] == origin


def test_another_origin_gets_no_cors_headers(api, configured_api):
    seed_builtin_tasks()
    preflight = _preflight(configured_api, OTHER)
    assert "access-control-allow-origin" not in preflight.headers and preflight.status_code >= 400
    # The request itself is served (CORS is the browser's check), but without the header the page cannot read it.
    assert "access-control-allow-origin" not in _post(configured_api, OTHER).headers


@pytest.mark.parametrize("origin", [ALLOWED, LOCAL_DEV])
def test_a_websocket_from_an_allowed_origin_works(api, configured_api, origin):
    seed_builtin_tasks()
    assert _subscribe(configured_api, origin) == {"roundStats": {"number": 1}}


def test_a_websocket_from_another_origin_is_refused(api, configured_api):
    seed_builtin_tasks()
    with pytest.raises(InvalidStatus) as refused:
        _subscribe(configured_api, OTHER)
    assert refused.value.response.status_code == 403


def test_without_the_setting_no_other_origin_is_allowed_and_non_browser_clients_are_unaffected(stack, api):
    """The test stack's API runs without ALLOWED_ORIGINS: only its own origin (and clients sending none)."""
    seed_builtin_tasks()
    assert "access-control-allow-origin" not in _preflight(stack.api_url, ALLOWED).headers
    with pytest.raises(InvalidStatus) as refused:
        _subscribe(stack.api_url, ALLOWED)
    assert refused.value.response.status_code == 403
    assert _subscribe(stack.api_url, stack.api_url) == {"roundStats": {"number": 1}}  # the same origin
    assert _subscribe(stack.api_url, None) == {"roundStats": {"number": 1}}  # no Origin header: not a browser


def test_a_value_that_is_not_an_origin_stops_the_start():
    from server.app import create_app
    from server.core.settings import Settings

    with pytest.raises(ValueError, match=r"Invalid origin 'annotate\.example\.org/app'"):
        create_app(Settings(jwt_secret="x" * 32, allowed_origins=("annotate.example.org/app",)))
