"""The tasks domain's outcomes, announced to whoever listens (server/domain_events/dispatcher.py): an admin's
decision on a proposed task. Its listeners: server/listeners.py."""

from __future__ import annotations

from dataclasses import dataclass

from server.domain_events.dispatcher import DomainEvent, domain_event


@domain_event
@dataclass(frozen=True, kw_only=True)
class TaskReviewed(DomainEvent):
    """A proposal approved (now public) or rejected, with the admin's note for its owners."""

    kind = "task.reviewed"
    task_id: int
    code: str
    name: str
    approved: bool
    note: str
    owner_ids: list[int]
