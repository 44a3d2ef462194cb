"""exportPayouts: the bonus CSV of matched workers' pending lines; those lines are frozen (exported)."""

from __future__ import annotations

from typing import Annotated

import strawberry
from strawberry import relay
from strawberry.types import Info

from server import permissions
from server.campaigns import ledger, service
from server.graphql.campaigns.types import PayoutFormat
from server.graphql.core.errors import (
    AuthenticationError,
    ConflictError,
    InputError,
    NotFoundError,
    PermissionError,
    mutation,
)
from server.graphql.core.guard import authorize
from server.graphql.core.relay import node_pk


@strawberry.type
class PayoutsExported:
    csv: str
    total_cents: int
    workers: int
    unpaid_workers: int = strawberry.field(description="Workers with pending money but no approved submission.")


ExportPayoutsResult = Annotated[
    PayoutsExported | InputError | NotFoundError | ConflictError | AuthenticationError | PermissionError,
    strawberry.union("ExportPayoutsResult"),
]


@mutation(description="Task owners: Prolific's bulk-bonus CSV or an MTurk SendBonus CSV; exported lines are frozen.")
async def export_payouts(info: Info, campaign_id: relay.GlobalID, format: PayoutFormat) -> ExportPayoutsResult:
    row = await service.get_campaign(node_pk(campaign_id, "Campaign", "campaignId"))
    await authorize(info, permissions.manage_campaigns, row["task"])
    export = await ledger.export_payouts(row["id"], format.value)
    return PayoutsExported(
        csv=export.text, total_cents=export.total_cents, workers=len(export.rows), unpaid_workers=len(export.unpaid_workers)
    )
