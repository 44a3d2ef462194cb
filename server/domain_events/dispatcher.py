"""Typed domain events: the code that decides an outcome records it and announces it; it never knows who listens.

    # the deciding service, inside its transaction:
    decided = await domain_events.record(ExampleAggregated(...))
    # after commit:
    await domain_events.announce(services, decided)

    # a listening domain's listeners.py:
    @listens(ExampleAggregated)
    async def recompute_ledgers(services: Services, event: ExampleAggregated) -> None: ...

`record` writes the event to the outbox in the caller's transaction (it commits with the outcome or not at all).
`announce` runs every listener of the event's class, in the order they were registered (server/listeners.py
imports the domains' listener modules), then marks it delivered. A listener that raises does not undo anything
and does not stop the others: it is retried by a job of its own, with backoff (server/domain_events/jobs.py). An
event never marked delivered (the process died after the commit) is delivered by the worker's sweeper. Listeners
must therefore be idempotent: they recompute from rows, or write what a unique key makes once.
"""

from __future__ import annotations

import dataclasses
import logging
import uuid
from collections import defaultdict
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, ClassVar, TypeVar

from server.core import jobs
from server.core.jsonutil import to_json
from server.core.services import Services
from server.domain_events import jobs as event_jobs
from server.domain_events import queries

log = logging.getLogger("dynabench.domain_events")


@dataclasses.dataclass(frozen=True, kw_only=True)
class DomainEvent:
    """Base of every domain event: a frozen dataclass of JSON values, with a kind (its name in the outbox)."""

    kind: ClassVar[str]
    event_id: str = dataclasses.field(default_factory=lambda: str(uuid.uuid4()))

    def once_key(self) -> str | None:
        """Events that happen once per key (a badge earned) name it; recording a second one writes nothing."""
        return None

    def payload(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


E = TypeVar("E", bound=DomainEvent)
Listener = Callable[[Services, Any], Awaitable[None]]

_KINDS: dict[str, type[DomainEvent]] = {}
_LISTENERS: dict[type[DomainEvent], list[Listener]] = defaultdict(list)
_BY_NAME: dict[str, Listener] = {}
_wired = False


def domain_event(cls: type[E]) -> type[E]:
    """Register an event class by its kind (the outbox and the retry jobs name events by kind)."""
    if _KINDS.get(cls.kind, cls) is not cls:
        raise TypeError(f"two domain events are named {cls.kind!r}")
    _KINDS[cls.kind] = cls
    return cls


def listener_name(listener: Listener) -> str:
    return f"{listener.__module__}:{listener.__qualname__}"


def listens(*kinds: type[E]) -> Callable[[Callable[[Services, E], Awaitable[None]]], Callable[[Services, E], Awaitable[None]]]:
    """Register the decorated coroutine `(services, event)` as a listener of these event classes."""

    def register(listener: Callable[[Services, E], Awaitable[None]]) -> Callable[[Services, E], Awaitable[None]]:
        _BY_NAME[listener_name(listener)] = listener
        for kind in kinds:
            if listener not in _LISTENERS[kind]:
                _LISTENERS[kind].append(listener)
        return listener

    return register


def wired() -> None:
    """Called by server/listeners.py once every domain's listeners are registered in this process."""
    global _wired
    _wired = True


def listeners_of(kind: type[DomainEvent]) -> list[Listener]:
    return list(_LISTENERS.get(kind, ()))


def event_from(kind: str, payload: Mapping[str, Any]) -> DomainEvent:
    return _KINDS[kind](**payload)


async def record(event: E) -> E | None:
    """Write the event to the outbox, in the caller's transaction. None for an event whose once key was recorded
    before (nothing is written: there is nothing new to announce)."""
    inserted = await queries.insert(event.event_id, event.kind, to_json(event.payload()), event.once_key())
    return event if inserted else None


async def announce(services: Services, *events: DomainEvent | None) -> None:
    """After commit: every listener of each event, in order. Never raises (the outcome has committed already)."""
    for event in events:
        if event is not None:
            await _deliver(services, event)


async def _deliver(services: Services, event: DomainEvent) -> None:
    if not _wired:
        # A process that did not load server/listeners.py (a script): the worker's sweeper delivers it.
        log.warning("domain event %s (%s) left to the sweeper: no listeners are loaded here", event.event_id, event.kind)
        return
    lost = False
    for listener in listeners_of(type(event)):
        try:
            await listener(services, event)
        except Exception:  # one listener's failure must not stop the others: it is retried on its own
            log.warning(
                "listener %s failed on %s %s; retrying it", listener_name(listener), event.kind, event.event_id, exc_info=True
            )
            lost |= not await _retry_later(services, listener, event)
    if lost:
        return  # left undelivered: the sweeper runs every listener again (they are idempotent)
    try:
        await queries.mark_delivered([event.event_id])
    except Exception:  # the database went away after the listeners ran: the sweeper runs them again
        log.warning("could not mark domain event %s delivered", event.event_id, exc_info=True)


async def _retry_later(services: Services, listener: Listener, event: DomainEvent) -> bool:
    try:
        await jobs.enqueue_once(
            services.arq,
            f"listener:{listener_name(listener)}:{event.event_id}",
            0,
            event_jobs.retry_listener,
            listener_name(listener),
            event.kind,
            event.payload(),
        )
        return True
    except Exception:
        log.warning("could not queue a retry of %s for %s", listener_name(listener), event.event_id, exc_info=True)
        return False


async def run_listener(services: Services, name: str, kind: str, payload: Mapping[str, Any]) -> None:
    """The retry job's work: one listener, one event; raises when it fails again (the job retries it)."""
    await _BY_NAME[name](services, event_from(kind, payload))


async def deliver_undelivered(services: Services, grace_s: float, limit: int = 200) -> int:
    """The sweeper: events recorded `grace_s` ago or more and never marked delivered are delivered now."""
    rows = await queries.undelivered(grace_s, limit)
    for row in rows:
        if row["kind"] not in _KINDS:
            log.warning("domain event %s of unknown kind %s left undelivered", row["event_id"], row["kind"])
            continue
        await _deliver(services, event_from(row["kind"], row["payload"]))
    return len(rows)


async def prune_delivered(age_s: float) -> int:
    return await queries.prune(age_s)
