"""The SDK keeps going through a restarted API: requests sent while it is down are retried until it answers, and a
live subscription reconnects and catches up with what changed meanwhile. Plus the retry rules themselves (429 with
Retry-After, 5xx, uploads that must not run twice) on a scripted transport."""

from __future__ import annotations

import os
import signal
import threading

import httpx
import pytest

from dynabench_client import (
    ArchiveRejectedError,
    AuthenticationError,
    Client,
    GraphQLError,
    NotFoundError,
    RetryPolicy,
    TransportError,
)
from dynabench_client.transport import NOT_IDEMPOTENT, RetryingTransport
from tests.api.examples_helpers import NEXT_CONTEXT, current_round, submit
from tests.conftest import seed_builtin_tasks
from tests.faults.chaos import ApiProcess

PATIENT = RetryPolicy(max_retries=60, base_delay=0.2, max_delay=1.0)


def test_calls_and_subscriptions_survive_a_killed_and_restarted_api(stack, api, target_models):
    seed_builtin_tasks()
    round_id = current_round(api, "sentiment")
    author = api.sign_up("sdk-restart")
    context_id = api(NEXT_CONTEXT, {"r": round_id}, token=author)["nextContext"]["id"]
    server = ApiProcess(stack)
    server.start()
    seen: list[int] = []
    first = threading.Event()
    answers: list[object] = []
    try:
        with Client(server.url, author, progress=False, retry=PATIENT) as client:

            def watch() -> None:
                for stats in client.round_stats(round_id):
                    seen.append(stats.total_collected)
                    first.set()
                    if stats.total_collected >= 2:
                        return

            watcher = threading.Thread(target=watch, daemon=True)
            watcher.start()
            assert first.wait(60) and seen == [0]

            os.kill(server.process.pid, signal.SIGKILL)
            server.process.wait(timeout=60)
            # While it is down: a call is retried (connection refused) and examples are written through the other API.
            caller = threading.Thread(target=lambda: answers.append(client.me()), daemon=True)
            caller.start()
            for text in ("Written while the API was down.", "Also written meanwhile."):
                submit(api, author, round_id, context_id, {"statement": text}, label="positive")
            server.start()
            caller.join(120)
            watcher.join(120)
            assert not caller.is_alive() and answers[0].username == "sdk-restart"
            assert client.aio.connection.transport.retries > 0
            assert not watcher.is_alive() and seen[-1] == 2, seen  # reconnected and caught up
    finally:
        server.stop()


def test_expected_errors_and_refusals_are_specific_exceptions(stack, api):
    seed_builtin_tasks()
    researcher = api.sign_up("sdk-errors")
    with Client(stack.api_url, researcher, progress=False) as client:
        with pytest.raises(NotFoundError) as missing:
            client.submit_model(b"PK\x03\x04not really a zip", "no_such_task", "m")
        assert missing.value.code == "NOT_FOUND" and missing.value.message
        with pytest.raises(ArchiveRejectedError) as rejected:
            client.submit_model(b"\x1f\x8bnot really a tar.gz", "sentiment", "m")
        assert rejected.value.code and rejected.value.reason, rejected.value  # the type's own field
        with pytest.raises(NotFoundError):
            client.model("TW9kZWw6OTk5OTk5")  # Model:999999
        with pytest.raises(ValueError, match="api_url"):
            Client("127.0.0.1:8000")
    with Client(stack.api_url, "not-a-token", progress=False) as stranger:
        with pytest.raises(GraphQLError) as refused:
            stranger.me()
        assert refused.value.codes == ["AUTHENTICATION_FAILED"]
        with pytest.raises(AuthenticationError):
            next(iter(stranger.round_stats(current_round(api, "sentiment"))))


def scripted(*answers: int | type[Exception], retry_after: str | None = None) -> tuple[RetryingTransport, list[httpx.Request]]:
    sent: list[httpx.Request] = []
    script = list(answers)

    def answer(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        step = script.pop(0)
        if isinstance(step, type):
            raise step("scripted", request=request)
        headers = {"Retry-After": retry_after} if retry_after and step == 429 else {}
        return httpx.Response(step, headers=headers, json={"data": {}})

    policy = RetryPolicy(max_retries=4, base_delay=0.001, max_delay=0.001)
    return RetryingTransport(policy, inner=httpx.MockTransport(answer)), sent


async def test_429_and_5xx_are_retried_and_uploads_only_when_they_did_not_run() -> None:
    transport, sent = scripted(429, 503, httpx.ConnectError, 502, 200, retry_after="0")
    async with httpx.AsyncClient(transport=transport) as http:
        assert (await http.post("http://api/graphql", json={})).status_code == 200
    assert len(sent) == 5 and transport.retries == 4

    transport, sent = scripted(500, 200)  # an upload's 500 may have stored the model: not sent again
    async with httpx.AsyncClient(transport=transport) as http:
        assert (await http.post("http://api/graphql", extensions={NOT_IDEMPOTENT: True})).status_code == 500
    transport, sent = scripted(httpx.ReadError, 200)
    async with httpx.AsyncClient(transport=transport) as http:
        with pytest.raises(httpx.ReadError):
            await http.post("http://api/graphql", extensions={NOT_IDEMPOTENT: True})
    transport, sent = scripted(429, 503, 200, retry_after="0")  # but refused ones are
    async with httpx.AsyncClient(transport=transport) as http:
        assert (await http.post("http://api/graphql", extensions={NOT_IDEMPOTENT: True})).status_code == 200

    transport, sent = scripted(503, 503, 503, 503, 503, 200)  # gives up after max_retries
    async with httpx.AsyncClient(transport=transport) as http:
        assert (await http.post("http://api/graphql")).status_code == 503
    assert len(sent) == 5


def test_retry_after_is_respected_in_seconds_and_as_a_date() -> None:
    policy = RetryPolicy(max_retry_after=100)
    request = httpx.Request("POST", "http://api/graphql")
    assert policy.delay(0, httpx.Response(429, headers={"Retry-After": "7"}, request=request)) == 7
    assert policy.delay(0, httpx.Response(429, headers={"Retry-After": "1000"}, request=request)) == 100
    later = httpx.Response(503, headers={"Retry-After": "Wed, 21 Oct 2099 07:28:00 GMT"}, request=request)
    assert policy.delay(0, later) == 100
    assert 0.5 * 0.75 <= policy.delay(0, httpx.Response(503, request=request)) <= 0.5 * 1.25  # no header: backoff


def test_an_unreachable_api_is_a_transport_error_after_the_retries() -> None:
    from server.runtime import free_port

    with Client(f"http://127.0.0.1:{free_port()}", progress=False, retry=RetryPolicy(max_retries=2, base_delay=0.01)) as client:
        with pytest.raises(TransportError, match="could not be reached"):
            client.me()
