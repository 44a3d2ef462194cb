"""Notifications: each user reads and marks only their own inbox."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from server.accounts.viewer import Principal
from server.permissions.base import Denied, read_own_account

__all__ = ["can_view_notification", "manage_notifications", "read_notifications"]


def read_notifications(viewer: Principal | None) -> Denied | None:
    """`notifications`, `unreadNotificationCount`, `notificationPreferences`, `notificationReceived`: signed in
    (a token needs the read scope); each answers the viewer's own inbox only."""
    return read_own_account(viewer)


def manage_notifications(viewer: Principal | None) -> Denied | None:
    """`markNotificationsRead`, `setNotificationPreferences`: the viewer's own inbox (the read scope is enough:
    nothing but the inbox's own state changes)."""
    return read_own_account(viewer)


def can_view_notification(viewer: Principal | None, row: Mapping[str, Any]) -> bool:
    """`node(id:)`: a notification is its recipient's alone (not even admins read others' inboxes)."""
    return viewer is not None and getattr(viewer, "user_id", None) == row["recipient"]
