"""joinCampaign: a worker arrives by a campaign's link; an MTurk preview creates nothing, anything else creates or
resumes their one pseudonymous account in the campaign and answers a session token."""

from __future__ import annotations

import uuid
from typing import Annotated

import strawberry
from strawberry.types import Info

from server import permissions
from server.campaigns import joining
from server.graphql.campaigns.types import CampaignPage, CampaignWorkerState
from server.graphql.core.errors import (
    AuthenticationError,
    ConflictError,
    InputError,
    NotFoundError,
    RateLimitedError,
    mutation,
)
from server.graphql.core.guard import authorize_principal


@strawberry.input
class JoinParam:
    name: str
    value: str


@strawberry.input
class JoinCampaignInput:
    code: str
    params: list[JoinParam] | None = strawberry.field(default=None, description="The link's query parameters.")
    query: str | None = strawberry.field(default=None, description="Or the link's query string, as is.")
    client_id: uuid.UUID = strawberry.field(description="The browser's id: makes an open link without pid resumable.")


@strawberry.type
class CampaignJoined:
    token: str = strawberry.field(description="A session token of the worker's pseudonymous account.")
    state: CampaignWorkerState


@strawberry.type(description="MTurk's preview of the HIT: show the page, create nothing.")
class CampaignPreview:
    campaign: CampaignPage


JoinCampaignResult = Annotated[
    CampaignJoined | CampaignPreview | InputError | NotFoundError | ConflictError | RateLimitedError | AuthenticationError,
    strawberry.union("JoinCampaignResult"),
]


@mutation(description="Join a campaign from its link (Prolific, MTurk or open), without a password.")
async def join_campaign(info: Info, input: JoinCampaignInput) -> JoinCampaignResult:
    await authorize_principal(info, permissions.join_campaign)  # bad credentials: AuthenticationError, never anonymous
    params = [(p.name, p.value) for p in input.params] if input.params is not None else None
    result = await joining.join_campaign(
        info.context.services, input.code, params, input.query, input.client_id, info.context.client_address()
    )
    if isinstance(result, joining.Preview):
        return CampaignPreview(campaign=CampaignPage.from_row(result.campaign))
    return CampaignJoined(token=result.token, state=CampaignWorkerState.of(result.state))
