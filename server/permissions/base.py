"""What every rule builds on: `Denied`, the signed-in and scope checks, task ownership."""

from __future__ import annotations

from dataclasses import dataclass

from server.accounts.records import TokenScope
from server.accounts.viewer import Principal, Viewer
from server.core.i18n import tr

__all__ = ["Denied", "is_task_owner", "read_own_account", "read_public", "signed_in"]


@dataclass(frozen=True)
class Denied:
    code: str  # AUTHENTICATION_REQUIRED | FORBIDDEN
    message: str


def signed_in(viewer: Principal | None, scope: TokenScope) -> Denied | None:
    if viewer is None:
        return Denied("AUTHENTICATION_REQUIRED", tr("Sign in (or send an API token) to do this."))
    if not viewer.has_scope(scope):
        return Denied("FORBIDDEN", tr("This API token lacks the '{scope}' scope.", scope=scope))
    return None


def is_task_owner(viewer: Viewer | None, task_id: int) -> bool:
    return viewer is not None and (viewer.is_admin or task_id in viewer.owned_task_ids)


def read_public(viewer: Principal | None) -> Denied | None:
    if viewer is not None and not viewer.has_scope(TokenScope.READ):
        return Denied("FORBIDDEN", tr("This API token lacks the 'read' scope."))
    return None


def read_own_account(viewer: Principal | None) -> Denied | None:
    return signed_in(viewer, TokenScope.READ)
