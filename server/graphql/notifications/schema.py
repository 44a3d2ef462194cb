"""Notifications in GraphQL: the viewer's inbox, its unread count, the email preferences and the live feed."""

from __future__ import annotations

from collections.abc import AsyncGenerator

import strawberry
from strawberry import relay
from strawberry.types import Info

from server import permissions
from server.core import events
from server.core.mail import mail_configured
from server.graphql.core.guard import authorize_principal
from server.graphql.core.relay import build_connection, check_page_size, decode_cursor, node_pk
from server.graphql.notifications.mutations.mark_notifications_read import mark_notifications_read
from server.graphql.notifications.mutations.set_notification_preferences import set_notification_preferences
from server.graphql.notifications.types import NotificationKind, NotificationNode, NotificationPreferences
from server.notifications import service

SHOWN_MEMORY = 1000  # ids a live feed remembers having sent (an event may name one it already sent)


@strawberry.type
class NotificationQueries:
    @strawberry.field(description="Your notifications, newest first (`unreadOnly`: only those not marked read).")
    async def notifications(
        self, info: Info, first: int = 20, after: str | None = None, unread_only: bool = False
    ) -> relay.Connection[NotificationNode]:
        viewer = await authorize_principal(info, permissions.read_notifications)
        assert viewer is not None
        first = check_page_size(first, info.context.services.settings.page_size_max)
        after_id = decode_cursor(after)
        rows = await service.inbox(viewer.user_id, after_id, unread_only, first + 1)
        return build_connection(rows, first, after_id, NotificationNode.from_row)

    @strawberry.field(description="How many of your notifications are not marked read.")
    async def unread_notification_count(self, info: Info) -> int:
        viewer = await authorize_principal(info, permissions.read_notifications)
        assert viewer is not None
        return await service.unread_count(viewer.user_id)

    @strawberry.field(description="The kinds of notification you also receive by email.")
    async def notification_preferences(self, info: Info) -> NotificationPreferences:
        viewer = await authorize_principal(info, permissions.read_notifications)
        assert viewer is not None
        return NotificationPreferences(
            email_kinds=[NotificationKind(k.value) for k in await service.email_preferences(viewer.user_id)],
            email_available=mail_configured(info.context.services.settings),
        )


@strawberry.type
class NotificationMutations:
    mark_notifications_read = mark_notifications_read
    set_notification_preferences = set_notification_preferences


@strawberry.type
class NotificationSubscriptions:
    @strawberry.subscription(
        description=(
            "Your new notifications as they are written. With `since` (the newest one you have, or the id "
            "`Notification:0` when your inbox read was empty), those written after it come first, so nothing is missed "
            "between reading the inbox and subscribing."
        )
    )
    async def notification_received(
        self, info: Info, since: relay.GlobalID | None = None
    ) -> AsyncGenerator[NotificationNode, None]:
        viewer = await authorize_principal(info, permissions.read_notifications)
        assert viewer is not None
        user_id = viewer.user_id
        after = _since(since)
        shown: set[int] = set()
        async with info.context.services.hub.listen(events.notification_channel(user_id)) as changes:
            if after is None:
                after = await service.latest_id(user_id)
            named: list[int] = []
            while True:
                rows = await service.not_shown(user_id, after, named)
                for row in rows:
                    if row["id"] in shown:
                        continue
                    shown.add(row["id"])
                    after = max(after, row["id"])
                    yield NotificationNode.from_row(row)
                if len(shown) > SHOWN_MEMORY:
                    shown = {i for i in shown if i > after - SHOWN_MEMORY}
                if len(rows) == service.LIVE_BATCH:  # more are waiting: read on before sleeping
                    named = []
                    continue
                event = await anext(changes)
                named = [event["id"]] if event.get("id") else []  # a resync names none: re-read the newer ones


def _since(since: relay.GlobalID | None) -> int | None:
    """The id the feed resumes after: none (from now on), `Notification:0` (an empty inbox: everything), or an id."""
    if since is None:
        return None
    if since.type_name == "Notification" and since.node_id == "0":
        return 0
    return node_pk(since, "Notification", "since")
