"""Accounts, API tokens, emails and password resets."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from server.accounts.records import TokenScope
from server.accounts.viewer import Principal, Viewer
from server.core.i18n import tr
from server.permissions.base import Denied, signed_in

__all__ = [
    "admin_issue_password_reset",
    "can_view_api_token",
    "can_view_email",
    "create_api_token",
    "delete_my_account",
    "export_my_data",
    "list_api_tokens",
    "revoke_api_token",
    "set_email",
]


def create_api_token(viewer: Principal | None) -> Denied | None:
    denied = signed_in(viewer, TokenScope.READ)
    if denied:
        return denied
    assert viewer is not None
    if viewer.via_token and not viewer.has_scope(TokenScope.ADMIN):
        return Denied("FORBIDDEN", tr("An API token can mint tokens only if it has the 'admin' scope."))
    return None


def list_api_tokens(viewer: Principal | None) -> Denied | None:
    """Seeing one's tokens is as guarded as minting one."""
    return create_api_token(viewer)


def revoke_api_token(viewer: Principal | None) -> Denied | None:
    """Revoking one's own token is as guarded as minting one (another user's token is not found)."""
    return create_api_token(viewer)


def can_view_api_token(viewer: Principal | None, token: Mapping[str, Any]) -> bool:
    """A token is seen by its owner only (`node(id:)` and `myApiTokens` alike)."""
    return viewer is not None and token["user"] == viewer.user_id


def set_email(viewer: Principal | None) -> Denied | None:
    """Changing the account's email (where its password resets go) is as guarded as minting a token."""
    return create_api_token(viewer)


def export_my_data(viewer: Principal | None) -> Denied | None:
    """Everything about the account, emails and tokens' names included: as guarded as minting a token."""
    return create_api_token(viewer)


def delete_my_account(viewer: Principal | None) -> Denied | None:
    """A signed-in session only: no API token deletes the account that made it."""
    if viewer is None:
        return Denied("AUTHENTICATION_REQUIRED", tr("Sign in to do this."))
    if viewer.via_token:
        return Denied("FORBIDDEN", tr("Delete your account from a signed-in session, not with an API token."))
    return None


def admin_issue_password_reset(viewer: Viewer | None) -> Denied | None:
    """Admins only (a session, or an API token with the 'admin' scope of an admin account)."""
    denied = signed_in(viewer, TokenScope.ADMIN)
    if denied:
        return denied
    assert viewer is not None
    if not viewer.is_admin:
        return Denied("FORBIDDEN", tr("Only an admin can issue a password reset link."))
    return None


def can_view_email(viewer: Viewer | None, user_id: int) -> bool:
    """A user's email is seen by that user and by admins only."""
    return viewer is not None and (viewer.user_id == user_id or viewer.is_admin)
