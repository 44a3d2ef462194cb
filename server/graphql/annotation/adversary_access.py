"""Who may read or cancel an adversary run: the owners (and admins) of its task; anyone else is told it does not
exist, as for any owner-only row."""

from __future__ import annotations

from typing import Any

from strawberry import relay
from strawberry.types import Info

from server import permissions
from server.annotation.adversary import service
from server.core.errors import not_found
from server.core.i18n import tr
from server.graphql.core.guard import authorize_principal
from server.graphql.core.relay import node_pk


async def owned_run(info: Info, run_id: relay.GlobalID) -> dict[str, Any]:
    await authorize_principal(info, permissions.task_owner_scope)
    row = await service.run_by_id(node_pk(run_id, "AdversaryRun", "runId"))
    viewer = await info.context.viewer()
    if row is None or permissions.manage_task(viewer, row["task"]) is not None:
        raise not_found(tr("That adversary run"))
    return row
