"""Webhooks: the task's owners and admins manage a task's hooks and read their delivery logs (nobody else sees them:
a hook's URL and its log are the owners' business)."""

from __future__ import annotations

from server.accounts.viewer import Viewer
from server.permissions.base import Denied
from server.permissions.tasks import manage_task

__all__ = ["manage_webhooks"]


def manage_webhooks(viewer: Viewer | None, task_id: int) -> Denied | None:
    """createWebhook, updateWebhook, deleteWebhook, webhooks(taskCode), webhookDeliveries: the task's owners and
    admins (a token needs the admin scope)."""
    return manage_task(viewer, task_id)
