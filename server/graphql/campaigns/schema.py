"""Crowd campaigns in GraphQL: the query and mutation fields."""

from __future__ import annotations

import strawberry
from strawberry import relay
from strawberry.types import Info

from server import permissions
from server.campaigns import joining, service
from server.graphql.campaigns.mutations.create_campaign import create_campaign
from server.graphql.campaigns.mutations.export_payouts import export_payouts
from server.graphql.campaigns.mutations.finish_campaign import finish_campaign
from server.graphql.campaigns.mutations.give_consent import give_consent
from server.graphql.campaigns.mutations.import_approved_submissions import import_approved_submissions
from server.graphql.campaigns.mutations.join_campaign import join_campaign
from server.graphql.campaigns.mutations.submit_quiz import submit_quiz
from server.graphql.campaigns.mutations.update_campaign import update_campaign
from server.graphql.campaigns.types import CampaignPage, CampaignType, CampaignWorkerState
from server.graphql.core.guard import authorize, authorize_principal
from server.graphql.core.relay import node_pk
from server.graphql.tasks.visibility import owned_task


@strawberry.type
class CampaignMutations:
    create_campaign = create_campaign
    update_campaign = update_campaign
    join_campaign = join_campaign
    give_consent = give_consent
    submit_quiz = submit_quiz
    finish_campaign = finish_campaign
    import_approved_submissions = import_approved_submissions
    export_payouts = export_payouts


@strawberry.type
class CampaignQueries:
    @strawberry.field(description="Task owners: a campaign with its settings and ledger; null when hidden or absent.")
    async def campaign(self, info: Info, id: relay.GlobalID) -> CampaignType | None:
        row = await service.get_campaign(node_pk(id, "Campaign", "id"))
        await authorize(info, permissions.manage_campaigns, row["task"])
        return CampaignType.from_row(row)

    @strawberry.field(description="Task owners: the task's campaigns, newest first.")
    async def campaigns(self, info: Info, task_code: str, first: int = 20) -> list[CampaignType]:
        task = await owned_task(info, task_code)
        await authorize(info, permissions.manage_campaigns, task["id"])
        return [CampaignType.from_row(r) for r in await service.campaigns_of_task(task["id"], first)]

    @strawberry.field(description="The public join page of an open (or closed) campaign; null for an unknown code.")
    async def campaign_by_code(self, info: Info, code: str) -> CampaignPage | None:
        await authorize_principal(info, permissions.read_campaign_page)
        row = await service.campaign_by_code(code)
        return CampaignPage.from_row(row) if row is not None else None

    @strawberry.field(
        description="Campaign workers: their stage, quota left, earned and pending amounts; null for a campaign the "
        "viewer does not work in."
    )
    async def my_campaign_work(self, info: Info, campaign_id: relay.GlobalID) -> CampaignWorkerState | None:
        principal = await authorize_principal(info, permissions.work_in_campaign)
        state = await joining.state_if_worker(principal.user_id, node_pk(campaign_id, "Campaign", "campaignId"))
        return CampaignWorkerState.of(state) if state is not None else None
