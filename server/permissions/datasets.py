"""Datasets of a task: who may see them (managing them is `manage_task`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from server.accounts.viewer import Viewer
from server.evaluation.records import DatasetAccess
from server.permissions.base import is_task_owner

__all__ = ["can_view_dataset"]


def can_view_dataset(viewer: Viewer | None, dataset: Mapping[str, Any]) -> bool:
    """Hidden datasets reach only the task's owners and admins, in lists and through `node(id:)` alike."""
    return dataset["access"] != DatasetAccess.HIDDEN or is_task_owner(viewer, dataset["task"])
