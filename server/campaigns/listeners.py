"""What the campaigns domain does when other domains announce an outcome (registered by server/listeners.py)."""

from __future__ import annotations

from server.annotation.domain_events import ExampleAggregated
from server.campaigns import ledger
from server.core.services import Services
from server.domain_events.dispatcher import listens


@listens(ExampleAggregated)
async def recompute_ledgers(services: Services, event: ExampleAggregated) -> None:
    """A campaign on the round pays from outcomes: its ledger is recomputed (a job, idempotent)."""
    if event.decided:
        await ledger.outcome_changed(services, event.round_id)
