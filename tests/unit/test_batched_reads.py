"""server/core/batched_reads.py: callers of one group within the window share one read; each gets its own key."""

from __future__ import annotations

import asyncio

import pytest

from server.core.batched_reads import BatchedReads, next_tick


def test_callers_within_the_window_share_one_read_and_later_ones_start_the_next():
    calls: list[tuple[object, list]] = []

    async def read(group, keys):
        calls.append((group, sorted(keys)))
        return {key: f"{group}:{key}" for key in keys}

    async def scenario():
        batches = BatchedReads(window=0.05)
        first = await asyncio.gather(*(batches.get("round-1", user, read) for user in (3, 1, 2, 1)))
        other_group = await batches.get("round-2", 9, read)
        later = await batches.get("round-1", 4, read)
        return batches, first, other_group, later

    batches, first, other_group, later = asyncio.run(scenario())
    assert first == ["round-1:3", "round-1:1", "round-1:2", "round-1:1"]
    assert other_group == "round-2:9" and later == "round-1:4"
    assert calls == [("round-1", [1, 2, 3]), ("round-2", [9]), ("round-1", [4])] and batches.reads == 3


def test_a_failed_read_reaches_every_caller_and_a_caller_that_leaves_cancels_nothing():
    async def failing(group, keys):
        raise ConnectionError("database down")

    async def scenario():
        reading, release, asked = asyncio.Event(), asyncio.Event(), []

        async def held(group, keys):  # answers once the test lets it: the caller leaves while it reads
            asked.extend(sorted(keys))
            reading.set()
            await release.wait()
            return dict.fromkeys(keys, 7)

        batches = BatchedReads(window=0.01)
        failures = await asyncio.gather(*(batches.get("g", k, failing) for k in range(3)), return_exceptions=True)
        leaving = asyncio.ensure_future(batches.get("h", 1, held))
        staying = asyncio.ensure_future(batches.get("h", 2, held))
        await reading.wait()
        assert asked == [1, 2]
        leaving.cancel()
        release.set()
        return failures, await staying, leaving

    failures, stayed, leaving = asyncio.run(scenario())
    assert all(isinstance(f, ConnectionError) and str(f) == "database down" for f in failures)
    assert stayed == 7 and leaving.cancelled()


@pytest.mark.parametrize(
    ("earliest", "interval", "tick"), [(10.2, 1.0, 11.0), (11.0, 1.0, 11.0), (0.3, 0.25, 0.5), (5.5, 0.0, 5.5)]
)
def test_next_tick_is_the_first_multiple_of_the_interval_not_before_the_earliest(earliest, interval, tick):
    assert next_tick(earliest, interval) == pytest.approx(tick)
