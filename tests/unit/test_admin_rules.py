"""The admin pages' pure rules: who may administer, and what a reason may be."""

import pytest

from server import permissions
from server.accounts.viewer import Principal, Viewer
from server.admin.audit import REASON_MAX, check_reason
from server.core.errors import ServiceError


def _viewer(is_admin: bool, scopes: frozenset[str] | None = None, via_token: bool = False) -> Viewer:
    extra = {"scopes": scopes} if scopes is not None else {}
    return Viewer(user_id=1, username="u", is_admin=is_admin, via_token=via_token, **extra)


def test_only_admins_with_the_admin_scope_administer():
    assert permissions.administer(None).code == "AUTHENTICATION_REQUIRED"
    assert permissions.administer(_viewer(False)).code == "FORBIDDEN"
    assert permissions.administer(_viewer(True)) is None
    assert permissions.administer(_viewer(True, frozenset({"read", "models"}), via_token=True)).code == "FORBIDDEN"
    assert permissions.administer(_viewer(True, frozenset({"admin"}), via_token=True)) is None
    assert isinstance(_viewer(True), Principal)


def test_reasons_are_stripped_bounded_and_storable():
    assert check_reason("  Spam.  ") == "Spam."
    assert check_reason("", required=False) == ""
    assert check_reason("x" * REASON_MAX) == "x" * REASON_MAX
    for bad, required in (("   ", True), ("x" * (REASON_MAX + 1), False), ("a\x00b", False)):
        with pytest.raises(ServiceError) as refused:
            check_reason(bad, required=required)
        assert refused.value.code == "INVALID_INPUT" and refused.value.fields[0].field == "reason"


def test_a_taken_down_model_cannot_be_published_again():
    model = {"owner": 1, "published": False, "taken_down_at": "2026-12-22T00:00:00Z"}
    denied = permissions.publish_model(_viewer(True), model)
    assert denied is not None and "took this model down" in denied.message
    assert permissions.publish_model(_viewer(False), {**model, "taken_down_at": None}) is None
