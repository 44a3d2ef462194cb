"""LLM endpoints (server/generation/endpoints/): admins register, change and remove them and see every task's usage;
a task's owners see their task's usage (tokens, estimated cost) and may name any enabled endpoint as a generative
round's target (the endpoint's per-task daily budget bounds what one task spends)."""

from __future__ import annotations

from server.accounts.viewer import Viewer
from server.permissions.admin import administer
from server.permissions.base import Denied
from server.permissions.tasks import manage_task

__all__ = ["list_llm_endpoint_choices", "manage_llm_endpoints", "read_generation_usage"]


def manage_llm_endpoints(viewer: Viewer | None) -> Denied | None:
    """List, register, change and remove LLM endpoints (their settings; never their keys): admins."""
    return administer(viewer)


def read_generation_usage(viewer: Viewer | None, task_id: int | None) -> Denied | None:
    """Tokens and estimated cost spent on LLM endpoints: of one task for its owners (and admins), of all for admins."""
    if task_id is None:
        return administer(viewer)
    return manage_task(viewer, task_id)


def list_llm_endpoint_choices(viewer: Viewer | None, task_id: int) -> Denied | None:
    """Which enabled endpoints a task's rounds may name as their target (names, models, limits; never an address or a
    key): the task's owners and admins, who choose its rounds' targets (`manage_task`)."""
    return manage_task(viewer, task_id)
