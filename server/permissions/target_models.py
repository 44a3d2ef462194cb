"""Target models: which tasks' rounds may be judged by a model, and who may retrain it.

The rule. A built-in target model belongs to the built-in task whose config names it
(`server/tasks/builtin.py`: `sentiment_minilm` to `sentiment`, `nli_minilm` to `nli`,
`hate_speech_minilm` to `hate_speech`, `qa_overlap_baseline` to `qa`). The owning task is known by its
code alone, because the built-in codes are reserved: the built-in tasks are seeded before the API
starts, and createTask refuses those codes.

* Only the owning task's rounds name a built-in target model, unless an admin opens the round (an admin
  may judge any task with any model). A task owner cannot borrow `sentiment_minilm` for a task of
  their own, so they cannot retrain it through that task either.
* Retraining (trainTargetModel retrains the current round's first target model, adding a version to
  the target Triton) is for the owning task's owners and admins; a built-in model that an admin put
  in another task's rounds is retrained only by an admin.
* An admin may share a built-in model with every task owner (server/tasks/shared_targets.py): then any owner may
  name it; retraining it stays with admins and its own task's owners.
* Any other model name belongs to no task: an owner may name it, and nothing retrains it (no recipe).

Every round pins the exact version that judges it (createRound resolves "latest" when the round
opens), so a new version never changes the judge of an open round.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from typing import Any

from server.accounts.viewer import Viewer
from server.core.i18n import tr
from server.permissions.admin import administer
from server.permissions.base import Denied
from server.permissions.tasks import create_task, manage_task
from server.tasks.builtin import BUILTIN_TARGETS

__all__ = ["list_served_models", "owning_task_code", "retrain_target_model", "share_target_models", "use_target_models"]


def owning_task_code(model_name: str) -> str | None:
    """The code of the built-in task that owns this target model, or None (nobody owns it)."""
    return BUILTIN_TARGETS.get(model_name)


def list_served_models(viewer: Viewer | None) -> Denied | None:
    """See which target models the target Triton serves (names, readiness, build metadata), to choose a new task's
    or round's targets: whoever may create a task (signed in; tokens need the admin scope)."""
    return create_task(viewer)


def use_target_models(
    viewer: Viewer | None, task: Mapping[str, Any], model_names: Iterable[str], shared: Collection[str] = frozenset()
) -> Denied | None:
    """Name these models as the targets of one of the task's rounds (after `manage_task`); `shared`: the names an admin
    shared with every task owner."""
    for name in model_names:
        owner = owning_task_code(name)
        if owner is not None and owner != task["code"] and name not in shared and not (viewer is not None and viewer.is_admin):
            return Denied(
                "FORBIDDEN",
                tr(
                    "The target model '{model}' belongs to the built-in task '{task}': only that task's rounds use it "
                    "until an admin shares it with every task owner.",
                    model=name,
                    task=owner,
                ),
            )
    return None


def share_target_models(viewer: Viewer | None) -> Denied | None:
    """Share a target model with every task owner, or stop: admins."""
    return administer(viewer)


def retrain_target_model(viewer: Viewer | None, task: Mapping[str, Any], model_name: str) -> Denied | None:
    """Build a new version of the task's target model: the task's owners and admins, and only an admin for a
    built-in model of another task."""
    denied = manage_task(viewer, task["id"])
    if denied:
        return denied
    owner = owning_task_code(model_name)
    if owner is not None and owner != task["code"] and not (viewer is not None and viewer.is_admin):
        return Denied(
            "FORBIDDEN",
            tr(
                "Only an admin or the owners of the built-in task '{task}' can retrain the target model '{model}'.",
                task=owner,
                model=model_name,
            ),
        )
    return None
