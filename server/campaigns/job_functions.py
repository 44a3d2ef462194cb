"""What the worker runs for the campaigns domain (server/campaigns/jobs.py): the ledger of server/campaigns/ledger.py."""

from __future__ import annotations

from server.campaigns import jobs, ledger
from server.core.jobs import runs


@runs(jobs.recompute_campaign_ledger)
async def recompute_campaign_ledger(ctx: dict, campaign_id: int) -> int:
    """Idempotent: re-running it with no outcome changed writes nothing. Returns how many lines changed."""
    change = await ledger.recompute(campaign_id)
    return 0 if change is None else len(change.insert) + len(change.update) + len(change.void)


async def sweep_campaign_ledgers(ctx: dict) -> int:
    """Cron: every live campaign's ledger recomputed (a lost job loses nothing)."""
    return await ledger.sweep()
