"""importApprovedSubmissions: the owner uploads the platform's list of approved submissions; only matched workers
are paid."""

from __future__ import annotations

from typing import Annotated

import strawberry
from strawberry import relay
from strawberry.file_uploads import Upload
from strawberry.types import Info

from server import permissions
from server.campaigns import ledger, service
from server.core.errors import FieldProblem, invalid
from server.core.i18n import localize, tr
from server.core.storable import check_upload
from server.graphql.core.errors import (
    AuthenticationError,
    InputError,
    NotFoundError,
    PermissionError,
    mutation,
)
from server.graphql.core.guard import authorize
from server.graphql.core.relay import node_pk

MAX_BYTES = 20_000_000


@strawberry.type
class ApprovedImported:
    matched: int
    unmatched_workers: list[str] = strawberry.field(description="Accounts (pseudonyms) with no approved submission.")
    unknown: int = strawberry.field(description="Approved on the platform, but no account in this campaign.")
    not_approved: int
    problems: list[str]


ImportApprovedSubmissionsResult = Annotated[
    ApprovedImported | InputError | NotFoundError | AuthenticationError | PermissionError,
    strawberry.union("ImportApprovedSubmissionsResult"),
]


@mutation(description="Task owners: import Prolific's submissions export or MTurk's assignment results (CSV).")
async def import_approved_submissions(info: Info, campaign_id: relay.GlobalID, file: Upload) -> ImportApprovedSubmissionsResult:
    row = await service.get_campaign(node_pk(campaign_id, "Campaign", "campaignId"))
    await authorize(info, permissions.manage_campaigns, row["task"])
    check_upload(file, "file")  # a JSON value where a file part belongs
    data = getattr(file, "file", file).read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise invalid(tr("The file is larger than 20 MB."), FieldProblem("file", tr("at most 20 MB")))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise invalid(tr("The file is not UTF-8 text (a CSV)."), FieldProblem("file", tr("not UTF-8 text"))) from None
    summary = await ledger.import_approved(info.context.services.settings, row["id"], text)
    return ApprovedImported(
        matched=summary.matched,
        unmatched_workers=summary.unmatched_workers,
        unknown=summary.unknown,
        not_approved=summary.not_approved,
        problems=[localize(problem) for problem in summary.problems],  # in the reader's language
    )
