"""Reads that many live subscriptions of one process make at about the same time, for different keys of one group,
made as one read (e.g. the waiting counts of a round's validators: one statement for all of them instead of four
statements per validator and second; issue #32).

A caller asks for its key; the first caller of a group opens a batch that closes `window` seconds later, and every
caller of the group until then joins it; then `read(group, keys)` runs once and each caller gets its own key's value.
Callers that want to meet in one batch wake on the same tick (`next_tick`).
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Awaitable, Callable, Hashable
from typing import Any

WINDOW_S = 0.02  # how long a batch waits for more callers after its first

Reader = Callable[[Hashable, list[Hashable]], Awaitable[dict[Hashable, Any]]]


class _Batch:
    def __init__(self) -> None:
        self.keys: set[Hashable] = set()
        self.result: asyncio.Future[dict[Hashable, Any]] = asyncio.get_running_loop().create_future()
        self.task: asyncio.Future[None] | None = None


class BatchedReads:
    def __init__(self, window: float = WINDOW_S) -> None:
        self._window = window
        self._open: dict[Hashable, _Batch] = {}
        self.reads = 0  # how many batched reads ran (tests and benchmarks count them)

    async def get(self, group: Hashable, key: Hashable, read: Reader) -> Any:
        batch = self._open.get(group)
        if batch is None:
            batch = self._open[group] = _Batch()
            batch.task = asyncio.ensure_future(self._run(group, batch, read))
        batch.keys.add(key)
        values = await asyncio.shield(batch.result)  # a caller that leaves does not cancel the others' read
        return values[key]

    async def _run(self, group: Hashable, batch: _Batch, read: Reader) -> None:
        try:
            try:
                await asyncio.sleep(self._window)
            finally:
                self._open.pop(group, None)  # later callers start the next batch
            self.reads += 1
            values = await read(group, list(batch.keys))
        except asyncio.CancelledError:  # the process is stopping
            batch.result.cancel()
            raise
        except Exception as exc:  # noqa: BLE001 (each caller gets the failure, e.g. the database down)
            batch.result.set_exception(exc)
            batch.result.exception()  # retrieved: callers that left are not warned about it
        else:
            batch.result.set_result(values)


def next_tick(earliest: float, interval: float) -> float:
    """The first multiple of `interval` on time.monotonic()'s scale at or after `earliest`: callers that wake on the same
    tick meet in one batch."""
    if interval <= 0:
        return earliest
    return math.ceil(earliest / interval) * interval
