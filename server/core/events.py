"""Every live event, typed, and every Redis pub/sub channel, in one module.

Services publish events after their transaction commits; every API process relays the channels its
subscribers listen to (server/core/event_hub.py). An event knows its channel and its wire payload
(a JSON object with a `kind`), which is what subscription resolvers read back.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, ClassVar

from redis.asyncio import Redis

from server.core.jsonutil import to_json

log = logging.getLogger("dynabench.events")


# Channels ---------------------------------------------------------------------------------------


def round_channel(round_id: int) -> str:
    """A round's counters and lifecycle: examples written, votes counted, round opened or closed."""
    return f"dynabench:round:{round_id}"


def example_channel(example_id: int) -> str:
    """One example's validation outcome."""
    return f"dynabench:example:{example_id}"


def queue_channel(round_id: int) -> str:
    """Examples becoming available for validation in a round, or leaving the queue."""
    return f"dynabench:queue:{round_id}"


def model_channel(model_id: int) -> str:
    """A researcher's model: status changes, log lines, evaluation progress."""
    return f"dynabench:model:{model_id}"


def training_channel(run_id: int) -> str:
    """A retraining run's progress."""
    return f"dynabench:training:{run_id}"


def account_channel(user_id: int) -> str:
    """One account's credentials: open WebSockets of the account re-check theirs on every event here."""
    return f"dynabench:account:{user_id}"


def notification_channel(user_id: int) -> str:
    """One account's inbox: a notification for it was written (server/notifications/)."""
    return f"dynabench:notifications:{user_id}"


def task_channel(task_id: int) -> str:
    """A task's life: approved or rejected by an admin (server/tasks/lifecycle.py)."""
    return f"dynabench:task:{task_id}"


def author_channel(user_id: int) -> str:
    """One author's own examples: judged, decided, flagged, retracted (`myExampleUpdates`)."""
    return f"dynabench:author:{user_id}"


TASKS_CHANNEL = "dynabench:tasks"
"""The task list: a task created, edited, reviewed, shown/hidden/archived, a round opened or closed (`taskListChanged`)."""


# Events -----------------------------------------------------------------------------------------


class Event:
    kind: ClassVar[str]

    def channel(self) -> str:
        raise NotImplementedError

    def fields(self) -> dict[str, Any]:
        return {}

    def payload(self) -> dict[str, Any]:
        return {"kind": self.kind, **self.fields()}


@dataclass(frozen=True)
class ExampleCreated(Event):
    kind: ClassVar[str] = "example_created"
    round_id: int
    example_id: int

    def channel(self) -> str:
        return round_channel(self.round_id)

    def fields(self) -> dict[str, Any]:
        return {"id": self.example_id}


@dataclass(frozen=True)
class RoundStatsChanged(Event):
    kind: ClassVar[str] = "round_stats"
    round_id: int

    def channel(self) -> str:
        return round_channel(self.round_id)


@dataclass(frozen=True)
class RoundCreated(Event):
    kind: ClassVar[str] = "round_created"
    round_id: int

    def channel(self) -> str:
        return round_channel(self.round_id)


@dataclass(frozen=True)
class RoundTargetsChanged(Event):
    kind: ClassVar[str] = "round_targets"
    round_id: int

    def channel(self) -> str:
        return round_channel(self.round_id)


@dataclass(frozen=True)
class RoundClosed(Event):
    kind: ClassVar[str] = "round_closed"
    round_id: int

    def channel(self) -> str:
        return round_channel(self.round_id)


@dataclass(frozen=True)
class ExampleAvailable(Event):
    """An example entered its round's validation queue."""

    kind: ClassVar[str] = "available"
    round_id: int
    example_id: int
    author_id: int

    def channel(self) -> str:
        return queue_channel(self.round_id)

    def fields(self) -> dict[str, Any]:
        return {"id": self.example_id, "author": self.author_id}


@dataclass(frozen=True)
class VoteCounted(Event):
    """A vote was aggregated (or the example retracted or removed): the example may have left the queue (`open`
    false), and its voters no longer see it.
    `holder_ids`: who holds a claim on it (handed it by nextExamplesToValidate), told when it leaves the queue; None when
    unknown (every validator of the round is told)."""

    kind: ClassVar[str] = "vote"
    round_id: int
    example_id: int
    still_open: bool
    voter_ids: tuple[int, ...]
    holder_ids: tuple[int, ...] | None = None

    def channel(self) -> str:
        return queue_channel(self.round_id)

    def fields(self) -> dict[str, Any]:
        holders = None if self.holder_ids is None else list(self.holder_ids)
        return {"id": self.example_id, "open": self.still_open, "voter_ids": list(self.voter_ids), "holder_ids": holders}


@dataclass(frozen=True)
class ExampleUpdated(Event):
    kind: ClassVar[str] = "example_updated"
    example_id: int
    status: str

    def channel(self) -> str:
        return example_channel(self.example_id)

    def fields(self) -> dict[str, Any]:
        return {"status": self.status}


@dataclass(frozen=True)
class ModelChanged(Event):
    kind: ClassVar[str] = "model"
    model_id: int
    status: str | None

    def channel(self) -> str:
        return model_channel(self.model_id)

    def fields(self) -> dict[str, Any]:
        return {"status": self.status}


@dataclass(frozen=True)
class TrainingChanged(Event):
    kind: ClassVar[str] = "training"
    run_id: int
    status: str

    def channel(self) -> str:
        return training_channel(self.run_id)

    def fields(self) -> dict[str, Any]:
        return {"status": self.status}


@dataclass(frozen=True)
class CredentialsRevoked(Event):
    """An API token of the account was revoked: sockets opened with it close (server/graphql/core/websocket.py)."""

    kind: ClassVar[str] = "credentials_revoked"
    user_id: int
    token_id: int

    def channel(self) -> str:
        return account_channel(self.user_id)

    def fields(self) -> dict[str, Any]:
        return {"token": self.token_id}


@dataclass(frozen=True)
class NotificationReceived(Event):
    """A notification for the user was written (`notification_id` 0: re-read the inbox, no id known)."""

    kind: ClassVar[str] = "notification"
    user_id: int
    notification_id: int = 0

    def channel(self) -> str:
        return notification_channel(self.user_id)

    def fields(self) -> dict[str, Any]:
        return {"id": self.notification_id}


@dataclass(frozen=True)
class TaskApproved(Event):
    """An admin approved a proposed task: it is public now (published after commit by server/tasks/lifecycle.py)."""

    kind: ClassVar[str] = "task_approved"
    task_id: int
    note: str = ""

    def channel(self) -> str:
        return task_channel(self.task_id)

    def fields(self) -> dict[str, Any]:
        return {"task": self.task_id, "note": self.note}


@dataclass(frozen=True)
class TaskRejected(Event):
    """An admin rejected a proposed task, with a note its owners read."""

    kind: ClassVar[str] = "task_rejected"
    task_id: int
    note: str = ""

    def channel(self) -> str:
        return task_channel(self.task_id)

    def fields(self) -> dict[str, Any]:
        return {"task": self.task_id, "note": self.note}


@dataclass(frozen=True)
class MyExampleChanged(Event):
    """One of the author's examples changed: `change` is judged (a verdict or a claim), outcome, flagged, retracted or
    explained."""

    kind: ClassVar[str] = "my_example"
    user_id: int
    example_id: int
    change: str

    def channel(self) -> str:
        return author_channel(self.user_id)

    def fields(self) -> dict[str, Any]:
        return {"id": self.example_id, "change": self.change}


@dataclass(frozen=True)
class TaskListChanged(Event):
    """A task's listing changed: `change` is created, updated, approved, rejected, visibility, round_opened or
    round_closed. Listeners re-read their task list (the payload names the task, never its contents)."""

    kind: ClassVar[str] = "task_list"
    task_id: int
    change: str

    def channel(self) -> str:
        return TASKS_CHANNEL

    def fields(self) -> dict[str, Any]:
        return {"task": self.task_id, "change": self.change}


# Publishing -------------------------------------------------------------------------------------


async def publish(redis: Redis, *events: Event) -> None:
    """Send now, in one round trip (a pipeline, not a transaction: each event is independent)."""
    if len(events) == 1:
        await redis.publish(events[0].channel(), to_json(events[0].payload()))
        return
    async with redis.pipeline(transaction=False) as pipe:
        for event in events:
            pipe.publish(event.channel(), to_json(event.payload()))
        await pipe.execute()


class CoalescingPublisher:
    """Fire-and-forget events of many concurrent writers, sent in shared pipelines: while one pipeline
    is in flight, the events of the writers that commit meanwhile gather for the next one (one round
    trip per burst instead of one per write). Order is kept; delivery is best effort, like Pub/Sub."""

    MAX_WAITING = 10_000  # while Redis is unreachable; beyond it the oldest events are dropped

    def __init__(self, redis: Redis) -> None:
        self._redis = redis
        self._waiting: list[Event] = []
        self._flushing: asyncio.Future[None] | None = None

    def publish_soon(self, events: Iterable[Event]) -> None:
        self._waiting.extend(events)
        if len(self._waiting) > self.MAX_WAITING:
            dropped = len(self._waiting) - self.MAX_WAITING
            del self._waiting[:dropped]
            log.warning("dropped %d live events: Redis is not keeping up", dropped)
        if self._flushing is None:
            self._flushing = asyncio.ensure_future(self._flush())

    async def _flush(self) -> None:
        try:
            while self._waiting:
                batch, self._waiting = self._waiting, []
                try:
                    await publish(self._redis, *batch)
                except Exception:
                    log.warning("could not publish %d live events", len(batch), exc_info=True)
        finally:
            self._flushing = None

    async def drain(self) -> None:
        """Wait until what was handed over so far has been sent (shutdown)."""
        if self._flushing is not None:
            await asyncio.shield(self._flushing)
