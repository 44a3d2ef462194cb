"""cancelAdversaryRun: a task's owner stops a run; what it wrote stays (docs/design.md §4.1f)."""

from __future__ import annotations

from typing import Annotated

import strawberry
from strawberry import relay
from strawberry.types import Info

from server.annotation.adversary import service
from server.graphql.annotation.adversary_access import owned_run
from server.graphql.annotation.adversary_types import AdversaryRun
from server.graphql.core.errors import AuthenticationError, InputError, NotFoundError, PermissionError, mutation


@strawberry.type
class AdversaryRunCancelled:
    run: AdversaryRun = strawberry.field(description="As it is now: cancelled, or as it ended if it had already.")


CancelAdversaryRunResult = Annotated[
    AdversaryRunCancelled | InputError | NotFoundError | AuthenticationError | PermissionError,
    strawberry.union("CancelAdversaryRunResult"),
]


@mutation(description="Task owners: stop a queued or running adversary run before its next example.")
async def cancel_adversary_run(info: Info, run_id: relay.GlobalID) -> CancelAdversaryRunResult:
    run = await owned_run(info, run_id)
    return AdversaryRunCancelled(run=AdversaryRun.from_row(await service.cancel_run(run["id"])))
