"""Root fields of adversary runs (docs/design.md §4.1f): a run by id, start and cancel (task owners)."""

from __future__ import annotations

import strawberry
from strawberry import relay
from strawberry.types import Info

from server.annotation.adversary import service
from server.graphql.annotation.adversary_access import owned_run
from server.graphql.annotation.adversary_types import AdversaryRun
from server.graphql.annotation.mutations import cancel_adversary_run, start_adversary_run


@strawberry.type
class AdversaryRunQueries:
    @strawberry.field(description="Task owners: an adversary run with its figures (poll it while it runs).")
    async def adversary_run(self, info: Info, id: relay.GlobalID) -> AdversaryRun:
        row = await owned_run(info, id)
        return AdversaryRun.from_row(await service.figures(row["id"]))


@strawberry.type
class AdversaryRunMutations:
    start_adversary_run = start_adversary_run.start_adversary_run
    cancel_adversary_run = cancel_adversary_run.cancel_adversary_run
