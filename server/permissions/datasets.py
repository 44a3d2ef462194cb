"""Datasets of a task: who may see them (managing them is `manage_task`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from server.accounts.viewer import Viewer
from server.evaluation.records import DatasetAccess
from server.permissions.base import is_task_owner

__all__ = ["can_view_dataset", "can_view_overlap_texts"]


def can_view_dataset(viewer: Viewer | None, dataset: Mapping[str, Any]) -> bool:
    """Hidden datasets reach only the task's owners and admins, in lists and through `node(id:)` alike."""
    return dataset["access"] != DatasetAccess.HIDDEN or is_task_owner(viewer, dataset["task"])


def can_view_overlap_texts(viewer: Viewer | None, task_id: int) -> bool:
    """A contamination report's example pairs (the rows' texts and what they match, collected examples and
    training data included) reach only the task's owners and admins; its counts are public like the leaderboard."""
    return is_task_owner(viewer, task_id)
