"""Examples: writing them and validating them."""

from __future__ import annotations

from server.accounts.viewer import Principal
from server.permissions.base import Denied, signed_in

__all__ = ["annotate", "validate"]


def annotate(viewer: Principal | None) -> Denied | None:
    return signed_in(viewer, "annotate")


def validate(viewer: Principal | None, owner_mode: bool = False) -> Denied | None:
    # Self-validation and whether the viewer owns the example's task are checked by the service.
    denied = signed_in(viewer, "annotate")
    if denied is None and owner_mode and not viewer.has_scope("admin"):
        return Denied("FORBIDDEN", "Owner mode is an owner operation: this API token lacks the 'admin' scope.")
    return denied
