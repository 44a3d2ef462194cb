"""From a committed change to queued webhook deliveries, without slowing the change.

Services call `emit` (or `emit_soon` on the submission path) once their transaction has committed, next to where they
publish the live event. `emit` asks a per-process index of which tasks have enabled hooks for which event types; the
index is tagged with a generation token in Redis that every hook change replaces after its commit, so it is re-read
from PostgreSQL only after a change (one Redis GET per event otherwise, and nothing more when no hook wants the
event). A wanted event becomes one arq job (`workers.webhooks.fan_out_webhook_event`), which writes one delivery row
per hook (unique per hook and event id, so a re-run adds nothing) and queues each delivery's first attempt.
"""

from __future__ import annotations

import asyncio
import base64
import logging
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from redis.asyncio import Redis

from server.core import jobs
from server.core.jsonutil import from_json, to_json
from server.core.services import Services
from server.webhooks import jobs as webhook_jobs
from server.webhooks import queries
from server.webhooks.records import WebhookEventType

log = logging.getLogger("dynabench.webhooks")

GENERATION_KEY = "dynabench:webhooks:generation"
MODEL_EVENTS = {"deployed": WebhookEventType.MODEL_DEPLOYED, "evaluated": WebhookEventType.MODEL_SCORED,
                "failed": WebhookEventType.MODEL_FAILED}  # fmt: skip
OUTCOME_EVENTS = {"validated": WebhookEventType.EXAMPLE_VALIDATED, "rejected": WebhookEventType.EXAMPLE_REJECTED}


def global_id(type_name: str, pk: int) -> str:
    """The GraphQL id of a row (what `node(id:)` reads), so a receiver can ask the API for more."""
    return base64.b64encode(f"{type_name}:{pk}".encode()).decode()


@dataclass(frozen=True)
class WebhookEvent:
    type: WebhookEventType
    data: dict[str, Any]
    task_id: int | None = None  # or the round's task, looked up when needed
    round_id: int | None = None
    id: str = field(default_factory=lambda: str(uuid.uuid4()))  # the payload's id: stable across retries
    occurred_at: str = field(default_factory=lambda: datetime.now(UTC).isoformat())

    def as_job(self) -> dict[str, Any]:
        return {"id": self.id, "type": str(self.type), "occurred_at": self.occurred_at, "task_id": self.task_id,
                "round_id": self.round_id, "data": self.data}  # fmt: skip


# The events, built from the rows the callers already hold ------------------------------------------------------


def example_created(example: Mapping[str, Any]) -> WebhookEvent:
    data = {"example": {"id": global_id("Example", example["id"]), "status": str(example["status"]),
                        "fooled": example.get("fooled")}}  # fmt: skip
    return WebhookEvent(WebhookEventType.EXAMPLE_CREATED, data, round_id=example["round"])


def example_decided(
    example_id: int, round_id: int, task_id: int, status: str, event_id: str | None = None
) -> WebhookEvent | None:
    """Validated or rejected (other outcomes are no webhook events). Given the domain event's id, the payload keeps
    it: a re-delivered outcome is the same webhook event (one delivery per hook)."""
    kind = OUTCOME_EVENTS.get(str(status))
    if kind is None:
        return None
    data = {"example": {"id": global_id("Example", example_id), "status": str(status)}}
    return WebhookEvent(kind, data, task_id=task_id, round_id=round_id, **_same_id(event_id))


def model_changed(model: Mapping[str, Any], event_id: str | None = None) -> WebhookEvent | None:
    """Deployed (after its deploy: not back to deployed after an interrupted evaluation), scored (evaluated) or
    failed; None for other statuses."""
    kind = MODEL_EVENTS.get(str(model.get("status")))
    if kind is None:
        return None
    if kind == WebhookEventType.MODEL_DEPLOYED:
        log = from_json(model.get("status_log")) or []
        if len(log) >= 2 and log[-2].get("status") != "deploying":
            return None
    data = {"model": {"id": global_id("Model", model["id"]), "name": model["name"], "status": str(model["status"])}}
    return WebhookEvent(kind, data, task_id=model["task"], **_same_id(event_id))


def _same_id(event_id: str | None) -> dict[str, str]:
    return {} if event_id is None else {"id": event_id}


def round_opened(round_row: Mapping[str, Any]) -> WebhookEvent:
    return WebhookEvent(WebhookEventType.ROUND_OPENED, {}, task_id=round_row["task"], round_id=round_row["id"])


def round_closed(round_row: Mapping[str, Any]) -> WebhookEvent:
    return WebhookEvent(WebhookEventType.ROUND_CLOSED, {}, task_id=round_row["task"], round_id=round_row["id"])


# Which tasks want what ---------------------------------------------------------------------------------------


class HookIndex:
    """task id → event types its enabled hooks subscribe to, as of the Redis generation token it was read at."""

    def __init__(self) -> None:
        self.generation: bytes | None = None
        self.wanted: dict[int, frozenset[str]] = {}
        self._lock = asyncio.Lock()

    async def current(self, redis: Redis) -> dict[int, frozenset[str]]:
        generation = await redis.get(GENERATION_KEY)
        if generation is None:  # never set, or Redis lost it: start a new generation (a fresh token, never reused)
            await redis.set(GENERATION_KEY, uuid.uuid4().hex, nx=True)
            generation = await redis.get(GENERATION_KEY)
        if generation != self.generation:
            async with self._lock:
                if generation != self.generation:
                    wanted: dict[int, set[str]] = {}
                    for row in await queries.enabled_hooks():
                        wanted.setdefault(row["task"], set()).update(row["events"])
                    self.wanted = {task: frozenset(kinds) for task, kinds in wanted.items()}
                    self.generation = generation
        return self.wanted


_INDEX = HookIndex()
_BACKGROUND: set[asyncio.Task] = set()


async def hooks_changed(redis: Redis) -> None:
    """After a hook change commits: every process re-reads the index before its next event."""
    await redis.set(GENERATION_KEY, uuid.uuid4().hex)


async def emit(services: Services, event: WebhookEvent | None) -> None:
    """Queue the event's fan-out if a hook wants it. Never raises: the change it reports has committed already."""
    try:
        await queue_fan_out(services, event)
    except Exception:  # a webhook must never fail the change it reports
        if event is not None:
            log.warning("could not queue webhook event %s (%s)", event.id, event.type, exc_info=True)


async def queue_fan_out(services: Services, event: WebhookEvent | None) -> None:
    """`emit` that raises when the fan-out cannot be queued: for a domain event's listener, which is retried."""
    if event is None:
        return
    wanted = await _INDEX.current(services.redis)
    if not any(event.type in kinds for kinds in wanted.values()):
        return
    task_id = event.task_id
    if task_id is None and event.round_id is not None:
        task_id = await queries.task_of_round(event.round_id)
    if task_id is None or event.type not in wanted.get(task_id, ()):
        return
    job = {**event.as_job(), "task_id": task_id}
    await jobs.enqueue(services.arq, webhook_jobs.fan_out_webhook_event, job)


def emit_soon(services: Services, event: WebhookEvent | None) -> None:
    """`emit` in the background: the writer (an annotator's submission) does not wait for it."""
    if event is None:
        return
    task = asyncio.ensure_future(emit(services, event))
    _BACKGROUND.add(task)
    task.add_done_callback(_BACKGROUND.discard)


# The fan-out job's work -------------------------------------------------------------------------------------


async def fan_out(services: Services, event: Mapping[str, Any]) -> int:
    """One delivery per enabled hook of the task subscribed to the event type (idempotent), each's next attempt
    queued. Returns how many attempts were queued."""
    event_id = uuid.UUID(str(event["id"]))
    task_id = event.get("task_id")
    if task_id is None and event.get("round_id") is not None:
        task_id = await queries.task_of_round(event["round_id"])
    if task_id is None:
        return 0
    hooks = await queries.hooks_for_event(task_id, event["type"])
    if hooks:
        data = dict(event.get("data") or {})
        if event.get("round_id") is not None:
            number = await queries.round_number(event["round_id"])
            data["round"] = {"id": global_id("Round", event["round_id"]), "number": number}
        payload = {"id": str(event_id), "type": event["type"], "occurred_at": event["occurred_at"],
                   "task": await queries.task_code(task_id), "data": data}  # fmt: skip
        await queries.insert_deliveries(hooks, event_id, event["type"], to_json(payload))
    pending = await queries.pending_of_event(event_id)
    for row in pending:
        await queue_attempt(services, row["id"], event_id, row["attempts"] + 1, 0)
    return len(pending)


async def queue_attempt(services: Services, delivery_id: int, event_id: object, attempt: int, delay_s: float) -> None:
    """The job id names the attempt: queuing one that is queued or running already (or finished within arq's
    keep_result) is a no-op. The event id is part of it: delivery ids restart after a database restore or reset."""
    job_id = f"webhook:{delivery_id}:{event_id}:{attempt}"
    await jobs.enqueue_once(services.arq, job_id, delay_s, webhook_jobs.deliver_webhook, delivery_id, attempt)
