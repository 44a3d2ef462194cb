"""markNotificationsRead: the viewer marks some of their notifications (or all of them) read."""

from __future__ import annotations

from typing import Annotated

import strawberry
from strawberry import relay
from strawberry.types import Info

from server import permissions
from server.core.errors import FieldProblem, invalid
from server.core.i18n import tr
from server.graphql.core.errors import AuthenticationError, InputError, PermissionError, mutation
from server.graphql.core.guard import authorize_principal
from server.graphql.core.relay import node_pk
from server.notifications import service

MAX_IDS = 100


@strawberry.type
class NotificationsMarked:
    marked_ids: list[relay.GlobalID] = strawberry.field(description="The notifications that were unread until now.")
    unread_count: int = strawberry.field(description="The viewer's unread notifications left.")


MarkNotificationsReadResult = Annotated[
    NotificationsMarked | InputError | AuthenticationError | PermissionError, strawberry.union("MarkNotificationsReadResult")
]


@mutation(
    description=(
        f"Mark your notifications read: up to {MAX_IDS} `ids`, or `all: true`. Ids of notifications that are not "
        "yours change nothing."
    )
)
async def mark_notifications_read(
    info: Info, ids: list[relay.GlobalID] | None = None, all: bool = False
) -> MarkNotificationsReadResult:
    viewer = await authorize_principal(info, permissions.manage_notifications)
    assert viewer is not None
    if all == (ids is not None):
        raise invalid(tr("Give either `ids` or `all: true`."), FieldProblem("ids", tr("give either ids or all")))
    if ids is not None and len(ids) > MAX_IDS:
        raise invalid(tr("At most {max} ids at once.", max=MAX_IDS), FieldProblem("ids", tr("at most {max}", max=MAX_IDS)))
    pks = None if ids is None else [node_pk(i, "Notification", "ids") for i in ids]
    marked, unread = await service.mark_read(viewer.user_id, pks)
    return NotificationsMarked(marked_ids=[relay.GlobalID("Notification", str(pk)) for pk in marked], unread_count=unread)
