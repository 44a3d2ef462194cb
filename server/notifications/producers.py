"""What writes notifications: a model's status, an example's outcome, a badge, a decision on a proposed task.

Each writer runs inside the transaction that records its fact (or in the idempotent job that does), and is
idempotent: the (recipient, kind, subject) key makes a retried job or a re-run write nothing. The caller announces
the rows after commit (service.announce / announce_user)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

from server.annotation import badges as badge_rules
from server.annotation.validation import stats
from server.core.jsonutil import from_json
from server.core.services import Services
from server.notifications import queries, service
from server.notifications.messages import excerpt
from server.notifications.records import NotificationKind, NotificationRow
from server.tasks import reads as task_reads

# A model's statuses that reach its owner's inbox ("taken_down": an admin's take-down, when that status exists).
MODEL_KINDS = {
    "deployed": NotificationKind.MODEL_DEPLOYED,
    "evaluated": NotificationKind.MODEL_SCORED,
    "failed": NotificationKind.MODEL_FAILED,
    "taken_down": NotificationKind.MODEL_TAKEN_DOWN,
}
STREAK_WINDOW = timedelta(days=max(badge_rules.STREAK_THRESHOLDS) + 1)
EXAMPLE_KINDS = {"validated": NotificationKind.EXAMPLE_VALIDATED, "rejected": NotificationKind.EXAMPLE_REJECTED}


def model_notifies(status: str) -> bool:
    return status in MODEL_KINDS


async def model_status(model: Mapping[str, Any], message: str) -> NotificationRow | None:
    """In the transaction that records the model's status (server/evaluation/status.py): its owner hears of the first
    deployment, scoring, failure or take-down of the model (the Triton name, unique per upload, names the subject)."""
    kind = MODEL_KINDS.get(str(model.get("status")))
    if kind is None:
        return None
    data = {"model_id": model["id"], "name": model["name"], "status": model["status"], "message": message[:500]}
    return await service.notify(model["owner"], kind, f"model:{model['id']}:{model['triton_name']}", data)


async def model_taken_down(model: Mapping[str, Any], reason: str) -> NotificationRow | None:
    """For the admins' take-down of a submission: the owner reads the reason. In the take-down's transaction."""
    data = {"model_id": model["id"], "name": model["name"], "status": "taken_down", "message": reason[:500]}
    return await service.notify(
        model["owner"], NotificationKind.MODEL_TAKEN_DOWN, f"model:{model['id']}:{model['triton_name']}", data
    )


async def example_decided(
    example: Mapping[str, Any], decided: str, task: Mapping[str, Any], text_fields: Iterable[str] = ()
) -> NotificationRow | None:
    """In the aggregation's transaction (server/annotation/validation/aggregating.py): the author hears that their
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


async def badges_earned(services: Services, task_id: int, user_ids: Iterable[int]) -> int:
    """The badges (server/annotation/badges.py) each user holds on the task now (streaks: among recent days); each
    one is notified once (subject task + badge). Run by the idempotent job the aggregation queues. Returns how many were new."""
    task = await task_reads.task_by_id(task_id)
    if task is None:
        return 0
    created: list[NotificationRow | None] = []
    for user_id in sorted(set(user_ids)):
        found = await stats.user_stats(task["id"], None, user_id)
        if found is None:
            continue
        # A streak that new activity completes ends in the last STREAK_WINDOW days: only those are read.
        days = await queries.recent_active_days(task["id"], user_id, datetime.now(UTC) - STREAK_WINDOW)
        for badge in badge_rules.badges(task["name"], found.submitted, found.validations_done, days):
            data = {
                "task_code": task["code"],
                "task_name": task["name"],
                "badge": badge.name,
                "description": badge.description,
                "rule": [badge.rule, badge.count],  # to word it again in the reader's language
            }
            created.append(await service.notify(user_id, NotificationKind.BADGE_EARNED, f"badge:{task['id']}:{badge.name}", data))
    await service.announce(services, created)
    return sum(1 for row in created if row)


async def notify_task_decision(
    task: Mapping[str, Any], owner_ids: Iterable[int], approved: bool, note: str = ""
) -> list[NotificationRow]:
    """An admin approved or rejected a proposed task: each owner hears it, with the admin's note. Call inside the
    decision's transaction, then `service.announce(services, rows)` after commit."""
    kind = NotificationKind.TASK_APPROVED if approved else NotificationKind.TASK_REJECTED
    data = {"task_code": task["code"], "task_name": task["name"], "note": note[:2000]}
    rows = [await service.notify(owner, kind, f"task:{task['id']}", data) for owner in sorted(set(owner_ids))]
    return [row for row in rows if row]
