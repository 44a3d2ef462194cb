"""What the campaigns domain does when other domains announce an outcome (registered by server/listeners.py)."""

from __future__ import annotations

from server.annotation.domain_events import ExampleAggregated
from server.campaigns import ledger
from server.core.services import Services
from server.domain_events.dispatcher import listens


@listens(ExampleAggregated)
async def recompute_ledgers(services: Services, event: ExampleAggregated) -> None:
    """A campaign on the round pays from outcomes: its ledger is recomputed (idempotent) at once, before the live views
    (listed after this listener) announce the outcome to its author, whose campaign page then re-reads its earnings."""
    if event.decided:
        await ledger.recompute_round(event.round_id)
