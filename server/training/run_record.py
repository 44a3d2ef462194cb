"""What a training run's job writes as it goes: its status, a log entry and columns in one statement, announced as
TrainingChanged; its cost; and its end as cancelled (used by server/training/job.py and server/training/submissions.py)."""

from __future__ import annotations

import asyncio
import contextlib
import resource
import shutil
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from server.core import db, events
from server.core.services import Services
from server.training import queries
from server.training.records import ACTIVE_STATUSES, TrainingStatus, log_entry


def _cpu_seconds() -> float:
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


class Cost:
    """The run's cost so far: wall seconds, and CPU seconds of the worker process (the training thread, torch's
    intra-op threads, inference and evaluation bookkeeping) and of the sandboxed processes it waited for (an uploaded
    classifier's train.py); Triton's own CPU is another process's and not counted."""

    def __init__(self) -> None:
        self.wall_started, self.cpu_started = time.monotonic(), _cpu_seconds()

    def values(self) -> dict[str, float]:
        return {
            "wall_seconds": round(time.monotonic() - self.wall_started, 2),
            "cpu_seconds": round(_cpu_seconds() - self.cpu_started, 2),
        }

    def text(self) -> str:
        values = self.values()
        return f"{values['wall_seconds']:.1f} s wall, {values['cpu_seconds']:.1f} s CPU"


async def record_run(
    services: Services,
    run_id: int,
    status: TrainingStatus | None = None,
    message: str | None = None,
    guarded: bool = False,
    and_then: Callable[[], Awaitable[None]] | None = None,
    **values: Any,
) -> bool:
    """Record the run's status, log entry and values (guarded: only while it is still the job's); `and_then` runs in
    the same transaction once the record is made (e.g. publishing the model the run offers). Watchers are told after."""
    entry = log_entry(status or TrainingStatus.TRAINING, message) if message is not None else None
    if and_then is None:
        done = await queries.record(run_id, status, entry, values, guarded=guarded)
    else:
        async with db.transaction():
            done = await queries.record(run_id, status, entry, values, guarded=guarded)
            if done:
                await and_then()
    if done:
        await events.publish(services.redis, events.TrainingChanged(run_id=run_id, status=status.value if status else None))
    return done


async def cancelled_run(
    services: Services,
    run_id: int,
    when: str,
    cost: Cost,
    version_dir: Path | None = None,
    loaded: bool = False,
    kept: str = "no new version was kept",
) -> str:
    """End the run as cancelled: its version directory removed (and Triton told to drop it, when it was loaded)."""
    if version_dir is not None:
        shutil.rmtree(version_dir, ignore_errors=True)
        if loaded:
            with contextlib.suppress(Exception):  # Triton drops the removed version; the others keep serving
                await asyncio.wait_for(services.triton.load_model(version_dir.parent.name), timeout=600)
    await record_run(
        services,
        run_id,
        TrainingStatus.CANCELLED,
        f"Cancelled {when}; {kept} and the current target keeps serving ({cost.text()}).",
        **cost.values(),
    )
    return TrainingStatus.CANCELLED.value


async def ended_meanwhile(run_id: int) -> str | None:
    """After a guarded write did not happen: the run's status if it has ended (e.g. given up as stale: never brought
    back to life), else None (asked to stop: the job's next step ends it as cancelled)."""
    now = await queries.run_by_id(run_id)
    if now is None:
        return TrainingStatus.FAILED.value
    return None if now["status"] in ACTIVE_STATUSES else now["status"]
