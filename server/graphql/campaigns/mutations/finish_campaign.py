"""finishCampaign: the worker is done; answers the completion code and where to take it (idempotent)."""

from __future__ import annotations

from typing import Annotated

import strawberry
from strawberry import relay
from strawberry.types import Info

from server import permissions
from server.campaigns import joining
from server.graphql.campaigns.types import CampaignWorkerState, CompletionInfo
from server.graphql.core.errors import (
    AuthenticationError,
    ConflictError,
    InputError,
    NotFoundError,
    PermissionError,
    mutation,
)
from server.graphql.core.guard import authorize_principal
from server.graphql.core.relay import node_pk


@strawberry.type
class CampaignFinished:
    completion: CompletionInfo
    state: CampaignWorkerState


FinishCampaignResult = Annotated[
    CampaignFinished | InputError | NotFoundError | ConflictError | AuthenticationError | PermissionError,
    strawberry.union("FinishCampaignResult"),
]


@mutation(description="Campaign workers: finish; the completion code and the platform's redirect or form.")
async def finish_campaign(info: Info, campaign_id: relay.GlobalID) -> FinishCampaignResult:
    principal = await authorize_principal(info, permissions.work_in_campaign)
    pk = node_pk(campaign_id, "Campaign", "campaignId")
    completion, state = await joining.finish(info.context.services, principal.user_id, pk)
    return CampaignFinished(completion=CompletionInfo.of(completion), state=CampaignWorkerState.of(state))
