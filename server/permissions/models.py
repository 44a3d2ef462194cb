"""Researchers' models: who may submit, see, follow and publish them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from server.accounts.records import TokenScope
from server.accounts.viewer import Principal, Viewer
from server.core.i18n import tr
from server.permissions.base import Denied, signed_in

__all__ = [
    "can_see_model_owner",
    "can_view_model",
    "can_view_model_log",
    "follow_model",
    "publish_model",
    "submit_models",
]


def submit_models(viewer: Principal | None) -> Denied | None:
    return signed_in(viewer, TokenScope.MODELS)


def _owner_or_admin(viewer: Viewer | None, model: Mapping[str, Any]) -> bool:
    return viewer is not None and (viewer.user_id == model["owner"] or viewer.is_admin)


def can_view_model(viewer: Viewer | None, model: Mapping[str, Any]) -> bool:
    """Published models are public; an unpublished one is seen by its owner and admins (lists, leaderboards, node)."""
    return model["published"] or _owner_or_admin(viewer, model)


def can_view_model_log(viewer: Viewer | None, model: Mapping[str, Any]) -> bool:
    """The status log holds Triton's own error text: its owner and admins only."""
    return _owner_or_admin(viewer, model)


def can_see_model_owner(viewer: Viewer | None, model: Mapping[str, Any]) -> bool:
    """An anonymous model hides its owner from everyone but the owner (admins included)."""
    return not model["anonymous"] or (viewer is not None and viewer.user_id == model["owner"])


def publish_model(viewer: Viewer | None, model: Mapping[str, Any]) -> Denied | None:
    if not _owner_or_admin(viewer, model):
        return Denied("FORBIDDEN", tr("Only the model's owner can publish it."))
    if model.get("taken_down_at") is not None:
        return Denied("FORBIDDEN", tr("An admin took this model down; it cannot be published again."))
    return None


def follow_model(viewer: Viewer | None, model: Mapping[str, Any]) -> Denied | None:
    """`modelUpdated`: the owner's live view of their model (admins too)."""
    if not _owner_or_admin(viewer, model):
        return Denied("FORBIDDEN", tr("You can follow only your own models."))
    return None
