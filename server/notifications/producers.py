"""What writes notifications: a model's status, an example's outcome, a badge, a decision on a proposed task.

Each writer runs in a listener of the domain event that announces its fact (server/notifications/listeners.py), and is
idempotent: the (recipient, kind, subject) key makes a retried listener or a re-run write nothing. The listener
announces the rows (service.announce)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from server.annotation.domain_events import BadgeEarned
from server.core.jsonutil import from_json
from server.notifications import service
from server.notifications.messages import excerpt
from server.notifications.records import NotificationKind, NotificationRow

# A model's statuses that reach its owner's inbox ("taken_down": an admin's take-down, when that status exists).
MODEL_KINDS = {
    "deployed": NotificationKind.MODEL_DEPLOYED,
    "evaluated": NotificationKind.MODEL_SCORED,
    "failed": NotificationKind.MODEL_FAILED,
    "taken_down": NotificationKind.MODEL_TAKEN_DOWN,
}
EXAMPLE_KINDS = {"validated": NotificationKind.EXAMPLE_VALIDATED, "rejected": NotificationKind.EXAMPLE_REJECTED}


def model_notifies(status: str) -> bool:
    return status in MODEL_KINDS


async def model_status(model: Mapping[str, Any], message: str) -> NotificationRow | None:
    """After a model's status changed (server/evaluation/models/status.py): its owner hears of the first
    deployment, scoring, failure or take-down of the model (the Triton name, unique per upload, names the subject)."""
    kind = MODEL_KINDS.get(str(model.get("status")))
    if kind is None:
        return None
    data = {"model_id": model["id"], "name": model["name"], "status": model["status"], "message": message[:500]}
    return await service.notify(model["owner"], kind, f"model:{model['id']}:{model['triton_name']}", data)


async def model_taken_down(model: Mapping[str, Any], reason: str) -> NotificationRow | None:
    """For the admins' take-down of a submission: the owner reads the reason."""
    data = {"model_id": model["id"], "name": model["name"], "status": "taken_down", "message": reason[:500]}
    return await service.notify(
        model["owner"], NotificationKind.MODEL_TAKEN_DOWN, f"model:{model['id']}:{model['triton_name']}", data
    )


async def example_decided(
    example: Mapping[str, Any], decided: str, task: Mapping[str, Any], text_fields: Iterable[str] = ()
) -> NotificationRow | None:
    """After an aggregation decided an example (server/annotation/validation/aggregating.py): the author hears that their
    example was validated or rejected (quoting the first of `text_fields`, the task's input fields, it has)."""
    kind = EXAMPLE_KINDS.get(decided)
    if kind is None:
        return None
    fields = example.get("input") or {}
    if isinstance(fields, str):  # jsonb as the row lock read it
        fields = from_json(fields)
    values = [fields.get(name) for name in text_fields] if isinstance(fields, dict) else []
    text = next((v for v in values if isinstance(v, str) and v.strip()), "")
    data = {
        "example_id": example["id"],
        "round_id": example["round"],
        "task_code": task["code"],
        "task_name": task["name"],
        "excerpt": excerpt(text),
    }
    return await service.notify(example["user"], kind, f"example:{example['id']}", data)


async def badge_earned(badge: BadgeEarned) -> NotificationRow | None:
    """A badge (server/annotation/badge_awards.py) reaches its holder once (subject task + badge)."""
    data = {
        "task_code": badge.task_code,
        "task_name": badge.task_name,
        "badge": badge.badge,
        "description": badge.description,
        "rule": [badge.rule, badge.count],  # to word it again in the reader's language
    }
    return await service.notify(badge.user_id, NotificationKind.BADGE_EARNED, f"badge:{badge.task_id}:{badge.badge}", data)


async def notify_task_decision(
    task: Mapping[str, Any], owner_ids: Iterable[int], approved: bool, note: str = ""
) -> list[NotificationRow]:
    """An admin approved or rejected a proposed task: each owner hears it, with the admin's note."""
    kind = NotificationKind.TASK_APPROVED if approved else NotificationKind.TASK_REJECTED
    data = {"task_code": task["code"], "task_name": task["name"], "note": note[:2000]}
    rows = [await service.notify(owner, kind, f"task:{task['id']}", data) for owner in sorted(set(owner_ids))]
    return [row for row in rows if row]
