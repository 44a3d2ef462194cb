"""What the worker runs for the notifications domain (server/notifications/jobs.py)."""

from __future__ import annotations

from server.core.jobs import runs
from server.notifications import emails, jobs, producers


@runs(jobs.send_notification_emails)
async def send_notification_emails(ctx: dict) -> int:
    """Idempotent: sends the queued copies, each once (also a cron, for copies whose job was lost)."""
    return await emails.send_due(ctx["services"].settings)


@runs(jobs.check_badges)
async def check_badges(ctx: dict, task_id: int, user_ids: list[int]) -> int:
    """Idempotent: a badge already notified is not notified again. Returns how many were new."""
    return await producers.badges_earned(ctx["services"], task_id, user_ids)
