"""Every permission rule, as named policies in one place (pure: no I/O).

A policy takes the viewer (None when anonymous) and, where relevant, the task, and returns None
when the operation is allowed or a `Denied` that says why.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from server.accounts.viewer import Principal, Viewer


@dataclass(frozen=True)
class Denied:
    code: str  # AUTHENTICATION_REQUIRED | FORBIDDEN
    message: str


def _signed_in(viewer: Principal | None, scope: str) -> Denied | None:
    if viewer is None:
        return Denied("AUTHENTICATION_REQUIRED", "Sign in (or send an API token) to do this.")
    if not viewer.has_scope(scope):
        return Denied("FORBIDDEN", f"This API token lacks the '{scope}' scope.")
    return None


def is_task_owner(viewer: Viewer | None, task_id: int) -> bool:
    return viewer is not None and (viewer.is_admin or task_id in viewer.owned_task_ids)


def read_public(viewer: Principal | None) -> Denied | None:
    if viewer is not None and not viewer.has_scope("read"):
        return Denied("FORBIDDEN", "This API token lacks the 'read' scope.")
    return None


def read_own_account(viewer: Principal | None) -> Denied | None:
    return _signed_in(viewer, "read")


def create_task(viewer: Principal | None) -> Denied | None:
    # Any signed-in user may start a task and becomes its owner; tokens need the admin scope.
    return _signed_in(viewer, "admin")


def manage_task(viewer: Viewer | None, task_id: int) -> Denied | None:
    """Open rounds, add contexts, choose target models, export: the task's owners and admins."""
    denied = _signed_in(viewer, "admin")
    if denied:
        return denied
    if not is_task_owner(viewer, task_id):
        return Denied("FORBIDDEN", "Only the task's owners (or an admin) can do this.")
    return None


def create_api_token(viewer: Principal | None) -> Denied | None:
    denied = _signed_in(viewer, "read")
    if denied:
        return denied
    assert viewer is not None
    if viewer.via_token and not viewer.has_scope("admin"):
        return Denied("FORBIDDEN", "An API token can mint tokens only if it has the 'admin' scope.")
    return None


def annotate(viewer: Principal | None) -> Denied | None:
    return _signed_in(viewer, "annotate")


def validate(viewer: Principal | None, owner_mode: bool = False) -> Denied | None:
    # Self-validation and whether the viewer owns the example's task are checked by the service.
    denied = _signed_in(viewer, "annotate")
    if denied is None and owner_mode and not viewer.has_scope("admin"):
        return Denied("FORBIDDEN", "Owner mode is an owner operation: this API token lacks the 'admin' scope.")
    return denied


def submit_models(viewer: Principal | None) -> Denied | None:
    return _signed_in(viewer, "models")


POLICIES: dict[str, Callable[..., Denied | None]] = {
    "read_public": read_public,
    "read_own_account": read_own_account,
    "create_task": create_task,
    "manage_task": manage_task,
    "create_api_token": create_api_token,
    "annotate": annotate,
    "validate": validate,
    "submit_models": submit_models,
}
