"""updateCampaign: a task's owners change a campaign's settings (only the fields given) or open / close it."""

from __future__ import annotations

from typing import Annotated

import strawberry
from strawberry import relay
from strawberry.types import Info

from server import permissions
from server.campaigns import ledger, service
from server.graphql.campaigns.mutations.create_campaign import CampaignSaved
from server.graphql.campaigns.types import CampaignInput, CampaignType
from server.graphql.core.errors import (
    AuthenticationError,
    InputError,
    NotFoundError,
    PermissionError,
    mutation,
)
from server.graphql.core.guard import authorize
from server.graphql.core.relay import node_pk
from server.tasks.service import get_task

UpdateCampaignResult = Annotated[
    CampaignSaved | InputError | NotFoundError | AuthenticationError | PermissionError,
    strawberry.union("UpdateCampaignResult"),
]


@mutation(description="Task owners: change a campaign (only the fields given); status OPEN lets workers join.")
async def update_campaign(info: Info, campaign_id: relay.GlobalID, input: CampaignInput) -> UpdateCampaignResult:
    row = await service.get_campaign(node_pk(campaign_id, "Campaign", "campaignId"))
    await authorize(info, permissions.manage_campaigns, row["task"])
    task = await get_task(row["task"])
    updated = await service.update_campaign(task, row["id"], input.spec())
    await ledger.campaign_updated(info.context.services, row, updated)
    return CampaignSaved(campaign=CampaignType.from_row(updated))
