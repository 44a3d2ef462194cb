"""Retraining runs of a task's target model."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from server.accounts.viewer import Viewer
from server.permissions.base import Denied, is_task_owner
from server.permissions.tasks import manage_task

__all__ = [
    "can_view_training_run",
    "cancel_training_run",
    "follow_training_run",
    "list_training_runs",
    "open_next_round",
    "override_training_gate",
    "start_training",
]


def start_training(viewer: Viewer | None, task_id: int) -> Denied | None:
    """Retrain the task's target model: an owner operation."""
    return manage_task(viewer, task_id)


def open_next_round(viewer: Viewer | None, task_id: int) -> Denied | None:
    """Open the next round with a published version: an owner operation."""
    return manage_task(viewer, task_id)


def cancel_training_run(viewer: Viewer | None, task_id: int) -> Denied | None:
    """Cancel a queued or running retraining: an owner operation."""
    return manage_task(viewer, task_id)


def override_training_gate(viewer: Viewer | None, task_id: int) -> Denied | None:
    """Offer a version the retraining gate rejected, with a reason (audited): an owner operation."""
    return manage_task(viewer, task_id)


def list_training_runs(viewer: Viewer | None, task_id: int) -> Denied | None:
    """`trainingRuns(taskCode:)`: the task's owners and admins (a token needs the admin scope)."""
    return manage_task(viewer, task_id)


def follow_training_run(viewer: Viewer | None, task_id: int) -> Denied | None:
    """`trainingRunUpdated`: the rule of `trainingRuns`."""
    return list_training_runs(viewer, task_id)


def can_view_training_run(viewer: Viewer | None, run: Mapping[str, Any]) -> bool:
    """Which runs a viewer sees (`node(id:)`, and each row of `trainingRuns`): those of tasks they own, or all
    for an admin. (Listing them at all also needs `list_training_runs`.)"""
    return is_task_owner(viewer, run["task"])
