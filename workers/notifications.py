"""Notification jobs: the email copies users opted into, and the badges an aggregation may have earned."""

from __future__ import annotations

from server.notifications import emails, producers


async def send_notification_emails(ctx: dict) -> int:
    """Idempotent: sends the queued copies, each once (also a cron, for copies whose job was lost)."""
    return await emails.send_due(ctx["services"].settings)


async def check_badges(ctx: dict, task_id: int, user_ids: list[int]) -> int:
    """Idempotent: a badge already notified is not notified again. Returns how many were new."""
    return await producers.badges_earned(ctx["services"], task_id, user_ids)
