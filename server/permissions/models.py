"""Researchers" models."""

from __future__ import annotations

from server.accounts.viewer import Principal
from server.permissions.base import Denied, signed_in

__all__ = ["submit_models"]


def submit_models(viewer: Principal | None) -> Denied | None:
    return signed_in(viewer, "models")
