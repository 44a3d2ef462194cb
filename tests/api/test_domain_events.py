"""Domain events (server/domain_events/): recorded with the outcome in its transaction, announced after commit to the
registered listeners in order; a failing listener neither undoes the outcome nor stops the others and is retried by a
job; an event whose announcing process died is delivered by the sweeper; once-per-key events are recorded once.

The dispatcher is driven in this process against the stack's real PostgreSQL and Redis, with probe events and
listeners of the test's own (retry jobs go to a queue of the test's own, which the stack's worker does not read:
it does not know these listeners). The last test follows a real vote through the worker."""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass
from types import SimpleNamespace

import pytest

from server import listeners as _wiring  # noqa: F401  (the process's listeners are registered, as in the API)
from server.domain_events.dispatcher import DomainEvent, domain_event, listens
from tests.api.examples_helpers import NEXT_CONTEXT, current_round, fooling_example, wait_until
from tests.conftest import run_sql, seed_builtin_tasks

TEST_QUEUE = "dynabench-tests:domain-events"


@domain_event
@dataclass(frozen=True, kw_only=True)
class ProbeDecided(DomainEvent):
    kind = "test.probe_decided"
    probe: int


@domain_event
@dataclass(frozen=True, kw_only=True)
class ProbeEarned(DomainEvent):
    kind = "test.probe_earned"
    holder: int

    def once_key(self) -> str:
        return f"probe:{self.holder}"


CALLS: list[tuple[str, int]] = []
FAILURES = {"left": 0}


@listens(ProbeDecided)
async def flaky(services, event: ProbeDecided) -> None:
    CALLS.append(("flaky", event.probe))
    if FAILURES["left"]:
        FAILURES["left"] -= 1
        raise RuntimeError("the listener's service is down")


@listens(ProbeDecided, ProbeEarned)
async def steady(services, event) -> None:
    CALLS.append(("steady", getattr(event, "probe", None) or event.holder))


def _run(body):
    """`body(services)` with a real arq pool on the test's own queue and a real Redis client."""
    from arq import create_pool
    from arq.connections import RedisSettings
    from redis.asyncio import Redis

    async def go():
        arq = await create_pool(RedisSettings.from_dsn(os.environ["REDIS_URL"]), default_queue_name=TEST_QUEUE)
        redis = Redis.from_url(os.environ["REDIS_URL"])
        try:
            return await body(SimpleNamespace(arq=arq, redis=redis))
        finally:
            await arq.delete(TEST_QUEUE)
            await arq.aclose()
            await redis.aclose()

    return asyncio.run(go())


def _rows(kind: str) -> list[dict]:
    return run_sql("SELECT event_id::text, payload, delivered_at FROM domain_events WHERE kind = $1 ORDER BY id", kind)


@pytest.fixture
def probes(api):
    CALLS.clear()
    FAILURES["left"] = 0
    yield


def test_listeners_run_in_order_after_commit_and_the_event_is_marked_delivered(probes):
    from server.core import db
    from server.domain_events import dispatcher

    async def body(services):
        async with db.transaction():
            event = await dispatcher.record(ProbeDecided(probe=1))
            assert CALLS == []  # nobody hears of it before the commit
        await dispatcher.announce(services, event)

    _run(body)
    assert CALLS == [("flaky", 1), ("steady", 1)]
    [row] = _rows("test.probe_decided")
    assert row["delivered_at"] is not None


def test_a_failing_listener_neither_undoes_the_outcome_nor_stops_the_others_and_is_retried(probes):
    from arq.jobs import Job

    from server.core import db
    from server.domain_events import dispatcher
    from server.domain_events.job_functions import retry_listener

    FAILURES["left"] = 2

    async def body(services):
        async with db.transaction():
            event = await dispatcher.record(ProbeDecided(probe=2))
        await dispatcher.announce(services, event)
        job_id = f"listener:{dispatcher.listener_name(flaky)}:{event.event_id}"
        queued = await Job(job_id, services.arq, _queue_name=TEST_QUEUE).info()
        assert queued is not None and queued.function == "retry_listener", "the failed listener's retry is queued"
        ctx = {"services": services, "job_try": 1}
        from arq import Retry

        with pytest.raises(Retry):  # it fails once more: the job is retried, with backoff
            await retry_listener(ctx, *queued.args)
        assert await retry_listener({**ctx, "job_try": 2}, *queued.args) == "ok"
        return event

    event = _run(body)
    assert CALLS == [("flaky", 2), ("steady", 2), ("flaky", 2), ("flaky", 2)]
    [row] = _rows("test.probe_decided")
    assert row["event_id"] == event.event_id and row["payload"]  # the outcome's record stayed
    assert row["delivered_at"] is not None  # the others ran; the failed one is its retry job's


def test_an_event_whose_announcing_process_died_is_delivered_by_the_sweeper(probes):
    from server.core import db
    from server.domain_events import dispatcher

    async def body(services):
        async with db.transaction():
            await dispatcher.record(ProbeDecided(probe=3))
        # No announce: the process "died" after the commit.
        assert await dispatcher.deliver_undelivered(services, grace_s=0) == 1
        assert await dispatcher.deliver_undelivered(services, grace_s=0) == 0  # delivered once

    _run(body)
    assert CALLS == [("flaky", 3), ("steady", 3)]
    assert _rows("test.probe_decided")[0]["delivered_at"] is not None


def test_a_rolled_back_outcome_records_no_event(probes):
    from server.core import db
    from server.domain_events import dispatcher

    async def body(services):
        with pytest.raises(RuntimeError):
            async with db.transaction():
                await dispatcher.record(ProbeDecided(probe=4))
                raise RuntimeError("the outcome's transaction failed")
        return await dispatcher.deliver_undelivered(services, grace_s=0)

    assert _run(body) == 0
    assert _rows("test.probe_decided") == [] and CALLS == []


def test_an_event_that_happens_once_per_key_is_announced_once(probes):
    from server.core import db
    from server.domain_events import dispatcher

    async def body(services):
        announced = []
        for _ in range(3):
            async with db.transaction():
                announced.append(await dispatcher.record(ProbeEarned(holder=7)))
            await dispatcher.announce(services, announced[-1])
        return announced

    first, *again = _run(body)
    assert first is not None and again == [None, None]
    assert CALLS == [("steady", 7)]
    assert len(_rows("test.probe_earned")) == 1


def test_a_vote_that_decides_an_example_is_announced_once_and_delivered(stack, api, target_models, admin_token):
    """validateExample → the worker's aggregation records ExampleAggregated with the outcome and its listeners run."""
    seed_builtin_tasks()
    author = api.sign_up("author")
    round_id = current_round(api, "sentiment")
    context_id = api(NEXT_CONTEXT, {"r": round_id}, token=author)["nextContext"]["id"]
    example = fooling_example(api, author, round_id, context_id, "A film that surprised me in every scene.")
    voted = api(
        """mutation($e: ID!) { validateExample(exampleId: $e, label: CORRECT, mode: OWNER) { __typename } }""",
        {"e": example["id"]},
        token=admin_token,
    )
    assert voted["validateExample"]["__typename"] == "ExampleValidated", voted

    def delivered():
        return [r for r in _rows("example.aggregated") if r["delivered_at"] is not None]

    wait_until(lambda: len(delivered()) == 1)
    payload = delivered()[0]["payload"]
    payload = payload if isinstance(payload, dict) else __import__("json").loads(payload)
    assert (payload["previous_status"], payload["status"]) == ("open", "validated")
    assert payload["input"]["statement"] == "A film that surprised me in every scene."
    # Its listeners ran: the author's inbox entry is there.
    kinds = [
        r["kind"]
        for r in run_sql("SELECT kind FROM notifications WHERE recipient = (SELECT id FROM users WHERE username = 'author')")
    ]
    assert kinds == ["example_validated"]
