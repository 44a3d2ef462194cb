"""The admin pages' operations: users, approvals, take-downs and the audit log (docs/design.md §14)."""

from __future__ import annotations

from server.accounts.records import TokenScope
from server.accounts.viewer import Viewer
from server.core.i18n import tr
from server.permissions.base import Denied, signed_in

__all__ = ["administer"]


def administer(viewer: Viewer | None) -> Denied | None:
    """Admins only: a session of an admin account, or an API token of one with the 'admin' scope."""
    denied = signed_in(viewer, TokenScope.ADMIN)
    if denied:
        return denied
    assert viewer is not None
    if not viewer.is_admin:
        return Denied("FORBIDDEN", tr("Only an admin can do this."))
    return None
