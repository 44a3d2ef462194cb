"""exportRound: task owners get a short-lived download link for every example of a round."""

from __future__ import annotations

from datetime import UTC, datetime
from enum import Enum
from typing import Annotated

import strawberry
from strawberry import relay
from strawberry.types import Info

from server import permissions
from server.annotation.exports import service as export_service
from server.graphql.core.errors import AuthenticationError, InputError, NotFoundError, PermissionError, mutation
from server.graphql.core.guard import authorize
from server.graphql.core.relay import node_pk
from server.graphql.tasks.visibility import owned_round


@strawberry.enum
class ExportFormat(Enum):
    JSONL = "jsonl"
    HF_DATASET = "hf_dataset"
    PREFERENCES = strawberry.enum_value(
        "preferences",
        description="A battle task's votes as pairwise preferences: JSONL lines of prompt, chosen, rejected (and models).",
    )


@strawberry.type
class RoundExport:
    url: str = strawberry.field(description="GET this path (same origin) within 15 minutes; no other credentials needed.")
    format: ExportFormat
    expires_at: datetime


ExportRoundResult = Annotated[
    RoundExport | InputError | NotFoundError | AuthenticationError | PermissionError, strawberry.union("ExportRoundResult")
]


@mutation(
    description=(
        "Task owners: a download link for every example of a round with its context, input, model output, "
        "validations, outcome and anonymised user ids (JSONL like the original platform's releases, or an "
        "HF-datasets directory as tar.gz); for a battle task also its votes as prompt / chosen / rejected pairs "
        "(PREFERENCES, JSONL) for reward-model training."
    )
)
async def export_round(info: Info, round_id: relay.GlobalID, format: ExportFormat = ExportFormat.JSONL) -> ExportRoundResult:
    round_row = await owned_round(info, node_pk(round_id, "Round", "roundId"))
    viewer = await authorize(info, permissions.manage_task, round_row["task"])
    await export_service.check_format(round_row["id"], format.value)
    token, expires = export_service.issue_link_token(
        round_row["id"], format.value, viewer.user_id, info.context.services.settings.jwt_secret
    )
    return RoundExport(url=f"/exports/{token}", format=format, expires_at=datetime.fromtimestamp(expires, tz=UTC))
