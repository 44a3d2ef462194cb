"""Crowd campaigns: owners manage them; anyone reads an open one's join page; a worker acts on their own place."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from server.accounts.records import TokenScope
from server.accounts.viewer import Principal, Viewer
from server.permissions.base import Denied, is_task_owner, read_public, signed_in
from server.permissions.tasks import manage_task

__all__ = [
    "can_view_campaign",
    "join_campaign",
    "manage_campaigns",
    "read_campaign_page",
    "work_in_campaign",
]


def manage_campaigns(viewer: Viewer | None, task_id: int) -> Denied | None:
    """createCampaign, updateCampaign, campaign(id), campaigns(taskCode), the ledger, imports and payout exports:
    the task's owners and admins (a token needs the admin scope)."""
    return manage_task(viewer, task_id)


def can_view_campaign(viewer: Viewer | None, campaign: Mapping[str, Any]) -> bool:
    """Campaign settings (quiz answers, pay, codes) are the owners' only."""
    return is_task_owner(viewer, campaign["task"])


def read_campaign_page(viewer: Principal | None) -> Denied | None:
    """campaignByCode: the public join page (title, platform, consent, instructions, quiz without answers)."""
    return read_public(viewer)


def join_campaign(viewer: Principal | None) -> Denied | None:
    """joinCampaign: anyone with the link (the link's worker id is what identifies them); a token needs no scope."""
    return None


def work_in_campaign(viewer: Principal | None) -> Denied | None:
    """giveConsent, submitQuiz, finishCampaign, myCampaignWork: the signed-in worker, on their own place only (the
    service answers NOT_FOUND for a campaign the account is not a worker of)."""
    return signed_in(viewer, TokenScope.ANNOTATE)
