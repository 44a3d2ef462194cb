"""Accounts and API tokens."""

from __future__ import annotations

from server.accounts.viewer import Principal
from server.permissions.base import Denied, signed_in

__all__ = ["create_api_token"]


def create_api_token(viewer: Principal | None) -> Denied | None:
    denied = signed_in(viewer, "read")
    if denied:
        return denied
    assert viewer is not None
    if viewer.via_token and not viewer.has_scope("admin"):
        return Denied("FORBIDDEN", "An API token can mint tokens only if it has the 'admin' scope.")
    return None
