"""Streaming from a registered LLM endpoint (server/generation/endpoints/streaming.py) against a real
OpenAI-compatible server (`transformers serve`): pieces arrive as they are generated, the usage is recorded with the
server's token counts and the estimated cost, closing the generator closes the stream and frees its slot."""

from __future__ import annotations

from decimal import Decimal

import pytest

from server.generation.endpoints import slots
from server.generation.endpoints.failures import EndpointUnavailable
from server.generation.endpoints.streaming import stream_endpoint
from tests.llm_endpoints.helpers import USAGE, builtin_task_ids, collect, register, request, usage_rows, user_id

KEY = "sk-test-0123456789abcdef-streaming"


async def test_a_reply_streams_piece_by_piece_and_its_tokens_and_cost_are_recorded(api, admin_token, llm_server, services):
    register(
        api,
        admin_token,
        name="local-gpt",
        baseUrl=llm_server.base_url,
        model=llm_server.model,
        apiKey=KEY,
        pricePer1kPromptTokens=0.5,
        pricePer1kCompletionTokens=2.0,
    )
    api.sign_up("writer")
    writer, task = user_id("writer"), (await builtin_task_ids())["sentiment"]

    stream = stream_endpoint(
        services, "local-gpt", request(max_tokens=40), user_id=writer, task_id=task, first_token_timeout_s=60, idle_timeout_s=30
    )
    pieces = await collect(stream)
    assert len(pieces) >= 2, pieces
    assert pieces[0][0] < pieces[-1][0], "the first piece came when the last did: not streamed"
    assert "".join(text for _, text in pieces).strip()

    [row] = usage_rows("local-gpt")
    assert (row["user"], row["task"], row["calls"], row["errors"]) == (writer, task, 1, 0)
    # The server's own counts (stream_options.include_usage): a random-weights model writes until max_tokens.
    assert row["prompt_tokens"] > 0 and 0 < row["completion_tokens"] <= 40
    expected = (Decimal(row["prompt_tokens"]) * Decimal("0.5") + Decimal(row["completion_tokens"]) * 2) / 1000
    assert row["estimated_cost"] == expected.quantize(Decimal("0.000001"))
    assert await slots.held(services.redis, "local-gpt") == 0

    report = api(USAGE, {"t": None, "d": 1}, token=admin_token)["generationUsage"]
    assert report["calls"] == 1 and report["errors"] == 0
    assert report["promptTokens"] == row["prompt_tokens"] and report["completionTokens"] == row["completion_tokens"]
    assert report["estimatedCost"] == pytest.approx(float(row["estimated_cost"]))
    [line] = report["lines"]
    assert (line["endpoint"], line["taskCode"], line["users"]) == ("local-gpt", "sentiment", 1)


async def test_closing_the_generator_closes_the_stream_frees_the_slot_and_counts_what_came(
    api, admin_token, llm_server, services
):
    register(api, admin_token, name="closer", baseUrl=llm_server.base_url, model=llm_server.model, maxConcurrency=1)
    api.sign_up("reader")
    reader, task = user_id("reader"), (await builtin_task_ids())["nli"]
    stream = stream_endpoint(
        services, "closer", request(max_tokens=400), user_id=reader, task_id=task, first_token_timeout_s=60, idle_timeout_s=30
    )
    first = await anext(stream)
    assert first.text and first.model_version  # the first piece names the model
    assert await slots.held(services.redis, "closer") == 1
    await stream.aclose()
    assert await slots.held(services.redis, "closer") == 0
    [row] = usage_rows("closer")
    assert (row["calls"], row["errors"]) == (1, 0)  # the caller stopped: not the endpoint's failure
    assert 1 <= row["completion_tokens"] < 400  # a token per chunk that came (the server's count never did)

    # The slot is free again: the next reply streams (a one-slot endpoint).
    again = await collect(
        stream_endpoint(
            services, "closer", request(max_tokens=8), user_id=reader, task_id=task, first_token_timeout_s=60, idle_timeout_s=30
        )
    )
    assert again


async def test_a_missing_or_disabled_endpoint_is_refused_before_any_call(api, admin_token, llm_server, services):
    register(api, admin_token, name="paused", baseUrl=llm_server.base_url, model=llm_server.model, enabled=False)
    api.sign_up("someone")
    someone, task = user_id("someone"), (await builtin_task_ids())["sentiment"]
    for name, words in (("paused", "switched off by an admin"), ("never-registered", "no LLM endpoint named")):
        with pytest.raises(EndpointUnavailable) as refused:
            await collect(
                stream_endpoint(
                    services, name, request(), user_id=someone, task_id=task, first_token_timeout_s=5, idle_timeout_s=5
                )
            )
        assert words in str(refused.value)
    assert usage_rows("paused") == []
