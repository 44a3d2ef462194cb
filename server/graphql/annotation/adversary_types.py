"""The AdversaryRun type (docs/design.md §4.1f): a run, its status and its figures counted from its examples."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from enum import Enum
from typing import Any

import strawberry
from strawberry import relay


@strawberry.enum(description="queued → running → done | failed | cancelled.")
class AdversaryRunStatus(Enum):
    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"
    CANCELLED = "cancelled"


@strawberry.type
class AdversaryRun:
    id: relay.GlobalID
    round_id: relay.GlobalID
    status: AdversaryRunStatus
    requested: int = strawberry.field(description="Examples the owner asked for.")
    produced: int = strawberry.field(description="Machine-made examples written so far (not retracted).")
    fooled: int = strawberry.field(description="Of those, the ones that fooled the round's target.")
    validated: int = strawberry.field(description="Of those, the ones the validators confirmed.")
    validated_fooled: int = strawberry.field(description="Validated examples that fooled the target.")
    awaiting_validation: int = strawberry.field(description="Examples still open in the validation queue.")
    refused: int = strawberry.field(description="Candidates not written (empty, too long, near-duplicates).")
    generator: str = strawberry.field(description="The generator asked (endpoint:<name> for an LLM endpoint).")
    error: str = strawberry.field(description="Failed: why. Done short of the count: what fell short. Else empty.")
    started_by: str = strawberry.field(description="The owner who started it (their rate limit and budgets count it).")
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> AdversaryRun:
        return cls(
            id=relay.GlobalID("AdversaryRun", str(row["id"])),
            round_id=relay.GlobalID("Round", str(row["round"])),
            status=AdversaryRunStatus(row["status"]),
            requested=row["requested"],
            produced=int(row["produced"]),
            fooled=int(row["fooled"]),
            validated=int(row["validated"]),
            validated_fooled=int(row["validated_fooled"]),
            awaiting_validation=int(row["awaiting_validation"]),
            refused=row["refused"],
            generator=row["generator"],
            error=row["error"],
            started_by=row["started_by_name"],
            created_at=row["created_at"],
            started_at=row["started_at"],
            finished_at=row["finished_at"],
        )


@strawberry.type
class MachineMade:
    """An example an adversary run wrote (its author is the machine account)."""

    run_id: relay.GlobalID
    source: str = strawberry.field(description="The generator that wrote it.")
    source_version: str
