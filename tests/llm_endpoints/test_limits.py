"""An LLM endpoint's limits against a real server: the daily token budgets per user and per task refuse a reply once
used up (saying which budget and when it resets), and the concurrency limit holds across processes (a slot taken by
another process counts) and frees when a reply ends."""

from __future__ import annotations

import asyncio
import os
import sys
from contextlib import aclosing

import pytest

from server.generation.endpoints import slots
from server.generation.endpoints.failures import EndpointBusy
from server.generation.endpoints.streaming import stream_endpoint
from server.generation.endpoints.usage import BudgetExhausted
from tests.conftest import ROOT
from tests.llm_endpoints.helpers import builtin_task_ids, collect, register, request, usage_rows, user_id

HOLDER = """
import asyncio, os, sys
from redis.asyncio import Redis
from server.generation.endpoints import slots

async def main():
    redis = Redis.from_url(os.environ["REDIS_URL"])
    slot = await slots.take(redis, sys.argv[1], 1, 5)
    print("held" if slot else "none", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    if slot:
        await slot.release()
    await redis.aclose()

asyncio.run(main())
"""


def _reply(services, name: str, user: int, task: int, wait_s: float = 60.0):
    return stream_endpoint(
        services, name, request(max_tokens=12), user_id=user, task_id=task, first_token_timeout_s=wait_s, idle_timeout_s=30
    )


async def test_budgets_per_user_and_per_task_refuse_once_used_up(api, admin_token, llm_server, services):
    for name in ("ann", "bob"):
        api.sign_up(name)
    ann, bob = user_id("ann"), user_id("bob")
    tasks = await builtin_task_ids()
    sentiment, nli = tasks["sentiment"], tasks["nli"]

    register(api, admin_token, name="per-user", baseUrl=llm_server.base_url, model=llm_server.model, tokensPerUserPerDay=10)
    assert await collect(_reply(services, "per-user", ann, sentiment))  # under budget before the call: it runs
    with pytest.raises(BudgetExhausted) as refused:
        await collect(_reply(services, "per-user", ann, nli))  # the user's budget covers every task
    message = str(refused.value)
    assert "your daily budget of 10 tokens" in message and "resets at 00:00 UTC" in message, message
    assert await collect(_reply(services, "per-user", bob, sentiment))  # another user has a budget of their own
    assert [r["calls"] for r in usage_rows("per-user")] == [1, 1]  # the refusal called nothing and counted nothing

    register(api, admin_token, name="per-task", baseUrl=llm_server.base_url, model=llm_server.model, tokensPerTaskPerDay=10)
    assert await collect(_reply(services, "per-task", ann, sentiment))
    with pytest.raises(BudgetExhausted) as refused:
        await collect(_reply(services, "per-task", bob, sentiment))  # the task's budget covers every user
    assert "This task has used its daily budget of 10 tokens" in str(refused.value)
    assert await collect(_reply(services, "per-task", bob, nli))  # another task has a budget of its own


async def test_the_concurrency_limit_holds_across_processes(api, admin_token, llm_server, services):
    api.sign_up("carol")
    carol, task = user_id("carol"), (await builtin_task_ids())["sentiment"]
    register(api, admin_token, name="one-at-a-time", baseUrl=llm_server.base_url, model=llm_server.model, maxConcurrency=1)

    # A reply in this process holds the only slot while it streams: a second one waits, then is refused.
    async with aclosing(_reply(services, "one-at-a-time", carol, task)) as first:
        assert await anext(first)
        with pytest.raises(EndpointBusy) as busy:
            await collect(_reply(services, "one-at-a-time", carol, task, wait_s=0.3))
        assert "1 conversations at once" in str(busy.value)
    assert await slots.held(services.redis, "one-at-a-time") == 0

    # Another process (another API replica) holds it: refused here too, until that process lets it go.
    holder = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        HOLDER,
        "one-at-a-time",
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        assert holder.stdout is not None and (await holder.stdout.readline()).strip() == b"held"
        with pytest.raises(EndpointBusy):
            await collect(_reply(services, "one-at-a-time", carol, task, wait_s=0.3))
    finally:
        await asyncio.wait_for(holder.communicate(b""), 30)
    assert await collect(_reply(services, "one-at-a-time", carol, task))
    assert [(r["calls"], r["errors"]) for r in usage_rows("one-at-a-time")] == [(2, 0)]  # refusals count no call


async def test_without_redis_a_reply_goes_ahead_without_a_slot():
    """As the rate limits do: a Redis that cannot be reached lets the call through (logged), and renewing or giving
    back that slot does nothing."""
    from redis.asyncio import Redis

    from server.runtime import free_port

    unreachable = Redis.from_url(f"redis://127.0.0.1:{free_port()}/0", socket_connect_timeout=1)
    try:
        slot = await slots.take(unreachable, "no-redis", 1, 0)
        assert slot is not None and slot.redis is None
        slot.renewed_at = 0.0
        await slot.keep()
        await slot.release()
    finally:
        await unreachable.aclose()
