"""The annotation domain's outcomes, announced to whoever listens (server/domain_events/dispatcher.py): an example's
votes aggregated (and maybe decided), a badge earned. Their listeners: server/listeners.py."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from server.domain_events.dispatcher import DomainEvent, domain_event


@domain_event
@dataclass(frozen=True, kw_only=True)
class ExampleAggregated(DomainEvent):
    """An example's votes were aggregated (server/annotation/validation/aggregating.py); `decided` when its outcome
    changed. Carries what listeners quote: the author's input and the task's input field names."""

    kind = "example.aggregated"
    example_id: int
    round_id: int
    task_id: int
    task_code: str
    task_name: str
    author_id: int
    voter_ids: list[int]
    previous_status: str
    status: str
    input: dict[str, Any]
    input_fields: list[str]

    @property
    def decided(self) -> bool:
        return self.status != self.previous_status


@domain_event
@dataclass(frozen=True, kw_only=True)
class BadgeEarned(DomainEvent):
    """A user holds a badge on a task (server/annotation/badges.py) for the first time; announced once per badge."""

    kind = "badge.earned"
    user_id: int
    task_id: int
    task_code: str
    task_name: str
    badge: str  # its English name, also its identity
    description: str
    rule: str
    count: int

    def once_key(self) -> str:
        return f"badge:{self.task_id}:{self.user_id}:{self.badge}"
