"""createCampaign: a task's owners define a crowd campaign for one of its rounds (a draft until opened)."""

from __future__ import annotations

from typing import Annotated

import strawberry
from strawberry.types import Info

from server import permissions
from server.campaigns import service
from server.graphql.campaigns.types import CampaignInput, CampaignType
from server.graphql.core.errors import (
    AuthenticationError,
    InputError,
    NotFoundError,
    PermissionError,
    mutation,
)
from server.graphql.core.guard import authorize
from server.graphql.tasks.visibility import owned_task


@strawberry.type
class CampaignSaved:
    campaign: CampaignType


CreateCampaignResult = Annotated[
    CampaignSaved | InputError | NotFoundError | AuthenticationError | PermissionError,
    strawberry.union("CreateCampaignResult"),
]


@mutation(description="Task owners: a crowd campaign for a round of the task (the current round by default).")
async def create_campaign(info: Info, task_code: str, input: CampaignInput) -> CreateCampaignResult:
    task = await owned_task(info, task_code)
    viewer = await authorize(info, permissions.manage_campaigns, task["id"])
    row = await service.create_campaign(task, viewer.user_id, input.spec())
    return CampaignSaved(campaign=CampaignType.from_row(row))
