"""setNotificationPreferences: the kinds of notification the viewer also wants by email."""

from __future__ import annotations

from typing import Annotated

import strawberry
from strawberry.types import Info

from server import permissions
from server.core.mail import mail_configured
from server.graphql.core.errors import AuthenticationError, InputError, PermissionError, mutation
from server.graphql.core.guard import authorize_principal
from server.graphql.notifications.types import NotificationKind, NotificationPreferences
from server.notifications import records, service


@strawberry.type
class NotificationPreferencesSaved:
    preferences: NotificationPreferences


SetNotificationPreferencesResult = Annotated[
    NotificationPreferencesSaved | InputError | AuthenticationError | PermissionError,
    strawberry.union("SetNotificationPreferencesResult"),
]


@mutation(
    description=(
        "Choose the kinds of notification you also receive by email (replacing the earlier choice; [] for none). "
        "Email goes to your verified address only, from the worker."
    )
)
async def set_notification_preferences(info: Info, email_kinds: list[NotificationKind]) -> SetNotificationPreferencesResult:
    viewer = await authorize_principal(info, permissions.manage_notifications)
    assert viewer is not None
    kinds = await service.set_email_preferences(viewer.user_id, [records.NotificationKind(k.value) for k in email_kinds])
    return NotificationPreferencesSaved(
        preferences=NotificationPreferences(
            email_kinds=[NotificationKind(k.value) for k in kinds],
            email_available=mail_configured(info.context.services.settings),
        )
    )
