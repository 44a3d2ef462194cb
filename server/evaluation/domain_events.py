"""The evaluation domain's outcomes, announced to whoever listens (server/domain_events/dispatcher.py): a model's
status changed, a model taken down by an admin. Their listeners: server/listeners.py."""

from __future__ import annotations

from dataclasses import dataclass

from server.domain_events.dispatcher import DomainEvent, domain_event


@domain_event
@dataclass(frozen=True, kw_only=True)
class ModelStatusChanged(DomainEvent):
    """A researcher's model has a new status (server/evaluation/models/status.py), with the message its log shows."""

    kind = "model.status_changed"
    model_id: int
    owner_id: int
    task_id: int
    name: str
    triton_name: str
    status: str
    previous_status: str | None  # the status logged before this one (None for the first)
    message: str


@domain_event
@dataclass(frozen=True, kw_only=True)
class ModelTakenDown(DomainEvent):
    """An admin took a submission down (server/evaluation/models/takedown.py): the open rounds it judged lost it."""

    kind = "model.taken_down"
    model_id: int
    owner_id: int
    name: str
    triton_name: str
    status: str
    reason: str
    round_ids: list[int]
