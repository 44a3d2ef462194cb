"""Accounts and API tokens."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from server.accounts.records import TokenScope
from server.accounts.viewer import Principal
from server.permissions.base import Denied, signed_in

__all__ = ["can_view_api_token", "create_api_token", "list_api_tokens", "revoke_api_token"]


def create_api_token(viewer: Principal | None) -> Denied | None:
    denied = signed_in(viewer, TokenScope.READ)
    if denied:
        return denied
    assert viewer is not None
    if viewer.via_token and not viewer.has_scope(TokenScope.ADMIN):
        return Denied("FORBIDDEN", "An API token can mint tokens only if it has the 'admin' scope.")
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
