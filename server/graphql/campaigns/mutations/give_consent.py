"""giveConsent: the worker consents to the campaign's terms (idempotent)."""

from __future__ import annotations

from typing import Annotated

import strawberry
from strawberry import relay
from strawberry.types import Info

from server import permissions
from server.campaigns import joining
from server.graphql.campaigns.types import CampaignWorkerState
from server.graphql.core.errors import (
    AuthenticationError,
    InputError,
    NotFoundError,
    PermissionError,
    mutation,
)
from server.graphql.core.guard import authorize_principal
from server.graphql.core.relay import node_pk


@strawberry.type
class ConsentGiven:
    state: CampaignWorkerState


GiveConsentResult = Annotated[
    ConsentGiven | InputError | NotFoundError | AuthenticationError | PermissionError,
    strawberry.union("GiveConsentResult"),
]


@mutation(description="Campaign workers: consent to the campaign's terms (shown as consentHtml).")
async def give_consent(info: Info, campaign_id: relay.GlobalID) -> GiveConsentResult:
    principal = await authorize_principal(info, permissions.work_in_campaign)
    state = await joining.give_consent(principal.user_id, node_pk(campaign_id, "Campaign", "campaignId"))
    return ConsentGiven(state=CampaignWorkerState.of(state))
