"""The campaigns domain's background jobs, declared (server/core/jobs.py); server/campaigns/job_functions.py runs them."""

from __future__ import annotations

from server.core.jobs import job


@job
async def recompute_campaign_ledger(campaign_id: int) -> None:
    """One campaign's payments ledger recomputed from verified outcomes (idempotent)."""
