"""Examples: writing them, changing one's own, validating them, and who may see them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from server.accounts.viewer import Principal, Viewer
from server.core.i18n import tr
from server.permissions.base import Denied, is_task_owner, signed_in
from server.permissions.tasks import manage_task

__all__ = [
    "annotate",
    "battle",
    "can_view_example",
    "change_example",
    "converse",
    "follow_example",
    "in_author_feed",
    "review_examples",
    "validate",
    "vote_on_example",
]


def annotate(viewer: Principal | None) -> Denied | None:
    return signed_in(viewer, "annotate")


def validate(viewer: Principal | None, owner_mode: bool = False) -> Denied | None:
    # Scopes only; the example itself is checked by `vote_on_example` once it has been read.
    denied = signed_in(viewer, "annotate")
    if denied is None and owner_mode and not viewer.has_scope("admin"):
        return Denied("FORBIDDEN", tr("Owner mode is an owner operation: this API token lacks the 'admin' scope."))
    return denied


def vote_on_example(viewer: Viewer, example: Mapping[str, Any], task_id: int, owner_mode: bool) -> Denied | None:
    """Owner mode needs the example's task; nobody validates their own example."""
    if owner_mode and not is_task_owner(viewer, task_id):
        return Denied("FORBIDDEN", tr("Only the task's owners can validate in owner mode."))
    if example["user"] == viewer.user_id:
        return Denied("FORBIDDEN", tr("You cannot validate your own example."))
    return None


def change_example(viewer: Principal, example: Mapping[str, Any]) -> Denied | None:
    """Retract, flag, explain: the author only."""
    if example["user"] != viewer.user_id:
        return Denied("FORBIDDEN", tr("You can change only your own examples."))
    return None


def converse(viewer: Principal, conversation: Mapping[str, Any]) -> Denied | None:
    """A conversation with a generative target, its replies and its stream: its author only (it is a draft until
    submitted; its example then follows the example rules)."""
    if conversation["user"] != viewer.user_id:
        return Denied("NOT_FOUND", tr("{what} does not exist.", what=tr("That conversation")))
    return None


def battle(viewer: Principal, battle_row: Mapping[str, Any]) -> Denied | None:
    """A side-by-side battle, its replies and its vote: its author only (the one voter); anyone else is told it does
    not exist."""
    if battle_row["user"] != viewer.user_id:
        return Denied("NOT_FOUND", tr("{what} does not exist.", what=tr("That battle")))
    return None


def can_view_example(viewer: Viewer | None, example: Mapping[str, Any], task_id: int) -> bool:
    """Its author, and the owners of its task (and admins)."""
    return viewer is not None and (example["user"] == viewer.user_id or is_task_owner(viewer, task_id))


def in_author_feed(viewer: Principal, example: Mapping[str, Any]) -> bool:
    """`myExampleUpdates` carries the viewer's own examples only (an event names an example id; its row decides)."""
    return example["user"] == viewer.user_id


def follow_example(viewer: Viewer | None, example: Mapping[str, Any], task_id: int) -> Denied | None:
    """The live updates of one example (`exampleUpdated`): whoever may see it."""
    if not can_view_example(viewer, example, task_id):
        return Denied("FORBIDDEN", tr("You can follow only your own examples."))
    return None


def review_examples(viewer: Viewer | None, task_id: int) -> Denied | None:
    """Browse and search a task's examples, see their votes (with the voters) and history, act on many at once
    (owner votes, resolve flags, retract): the task's owners and admins; API tokens need the admin scope."""
    return manage_task(viewer, task_id)
