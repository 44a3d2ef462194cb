"""Crowd campaign jobs: the payments ledger recomputed from verified outcomes (server/campaigns/ledger.py)."""

from __future__ import annotations

from server.campaigns import ledger


async def recompute_campaign_ledger(ctx: dict, campaign_id: int) -> int:
    """Idempotent: re-running it with no outcome changed writes nothing. Returns how many lines changed."""
    change = await ledger.recompute(campaign_id)
    return 0 if change is None else len(change.insert) + len(change.update) + len(change.void)


async def sweep_campaign_ledgers(ctx: dict) -> int:
    return await ledger.sweep()
