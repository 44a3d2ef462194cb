"""How a reply from an LLM endpoint fails, against real servers: a timeout is GenerationTimedOut; an unreachable,
silent or erroring server a readable GenerationFailed that names the endpoint, never its address or key (a server
that echoes the key in its error body included, and the openai client's debug logs); a server killed mid-stream
fails the reply after the pieces it sent, which are counted."""

from __future__ import annotations

import logging

import pytest

from server.generation.endpoints import slots
from server.generation.endpoints.streaming import stream_endpoint
from server.generation.streaming import GenerationFailed, GenerationTimedOut
from server.runtime import free_port
from tests.llm_endpoints.fault_servers import black_hole, echoing_server
from tests.llm_endpoints.helpers import builtin_task_ids, collect, register, request, usage_rows, user_id
from tests.llm_endpoints.llm_server import LlmServer

KEY = "sk-live-FAILURES-9f8e7d6c5b4a3210"


async def _fail(services, name: str, user: int, task: int, **timeouts: float) -> tuple[list, GenerationFailed]:
    pieces: list = []
    stream = stream_endpoint(
        services,
        name,
        request(max_tokens=timeouts.pop("max_tokens", 16)),
        user_id=user,
        task_id=task,
        first_token_timeout_s=timeouts.get("first", 30.0),
        idle_timeout_s=timeouts.get("idle", 30.0),
    )
    with pytest.raises(GenerationFailed) as failed:
        async for piece in stream:
            pieces.append(piece.text)
    return pieces, failed.value


def _clean(message: str, *addresses: str) -> None:
    assert KEY not in message and KEY[8:20] not in message, message
    for address in addresses:
        assert address not in message, message
    assert "127.0.0.1" not in message, message


async def test_timeouts_are_generation_timed_out(api, admin_token, llm_server, services):
    api.sign_up("patient")
    user, task = user_id("patient"), (await builtin_task_ids())["sentiment"]
    register(api, admin_token, name="quick", baseUrl=llm_server.base_url, model=llm_server.model, apiKey=KEY)
    _, failure = await _fail(services, "quick", user, task, first=0.001)
    assert isinstance(failure, GenerationTimedOut) and "no token within 0.001 s" in str(failure)

    with black_hole() as silent:
        register(api, admin_token, name="silent", baseUrl=silent, model="m", apiKey=KEY, timeoutS=1)
        _, failure = await _fail(services, "silent", user, task)
    assert isinstance(failure, GenerationTimedOut) and "limit of 1 s" in str(failure), failure
    _clean(str(failure), silent)
    assert [r["errors"] for r in usage_rows("quick") + usage_rows("silent")] == [1, 1]
    assert await slots.held(services.redis, "silent") == 0


async def test_unreachable_and_erroring_servers_never_show_their_address_or_the_key(
    api, admin_token, services, caplog: pytest.LogCaptureFixture
):
    caplog.set_level(logging.DEBUG)  # the openai client's and httpx's debug lines too
    api.sign_up("curious")
    user, task = user_id("curious"), (await builtin_task_ids())["sentiment"]
    nowhere = f"http://127.0.0.1:{free_port()}/v1"
    register(api, admin_token, name="nowhere", baseUrl=nowhere, model="m", apiKey=KEY)
    _, failure = await _fail(services, "nowhere", user, task)
    assert not isinstance(failure, GenerationTimedOut) and "cannot be reached" in str(failure), failure
    _clean(str(failure), nowhere)

    for status, words in ((500, "answered with an error (HTTP 500)"), (401, "refused the platform's key")):
        with echoing_server(status) as echo:
            name = f"echo-{status}"
            register(api, admin_token, name=name, baseUrl=echo, model="m", apiKey=KEY)
            _, failure = await _fail(services, name, user, task)
        assert words in str(failure), failure
        _clean(str(failure), echo, echo.split("//")[1].split("/")[0])
    assert KEY not in caplog.text
    assert any(record.name.startswith("openai") for record in caplog.records), "the openai client logged nothing"


async def test_a_server_killed_mid_stream_fails_the_reply_after_its_pieces(api, admin_token, tiny_model, services, tmp_path):
    server = LlmServer(tiny_model, tmp_path / "doomed.log").start()
    try:
        register(api, admin_token, name="doomed", baseUrl=server.base_url, model=server.model, apiKey=KEY)
        api.sign_up("witness")
        user, task = user_id("witness"), (await builtin_task_ids())["sentiment"]
        stream = stream_endpoint(
            services, "doomed", request(max_tokens=1000), user_id=user, task_id=task, first_token_timeout_s=60, idle_timeout_s=30
        )
        pieces = [(await anext(stream)).text for _ in range(3)]
        server.kill()
        with pytest.raises(GenerationFailed) as failed:
            async for piece in stream:
                pieces.append(piece.text)
    finally:
        server.stop()
    assert not isinstance(failed.value, GenerationTimedOut), failed.value
    assert "broke off" in str(failed.value), failed.value
    _clean(str(failed.value), server.base_url)
    [row] = usage_rows("doomed")
    assert (row["calls"], row["errors"]) == (1, 1)
    assert row["completion_tokens"] == len(pieces) >= 3  # what came is counted: a token per chunk
    assert row["prompt_tokens"] > 0  # estimated from the prompt (the server never sent its count)
    assert await slots.held(services.redis, "doomed") == 0


async def test_a_failed_reply_after_a_usable_one_keeps_both_counts(api, admin_token, llm_server, services):
    """Collecting a reply works as before once a failure was recorded for the same user, task and day."""
    api.sign_up("steady")
    user, task = user_id("steady"), (await builtin_task_ids())["nli"]
    register(api, admin_token, name="steady", baseUrl=llm_server.base_url, model=llm_server.model)
    await _fail(services, "steady", user, task, first=0.001)
    assert await collect(
        stream_endpoint(
            services, "steady", request(max_tokens=8), user_id=user, task_id=task, first_token_timeout_s=60, idle_timeout_s=30
        )
    )
    [row] = usage_rows("steady")
    assert (row["calls"], row["errors"]) == (2, 1)
