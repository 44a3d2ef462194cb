"""What the worker runs for the notifications domain (server/notifications/jobs.py)."""

from __future__ import annotations

from server.core.jobs import runs
from server.notifications import emails, jobs


@runs(jobs.send_notification_emails)
async def send_notification_emails(ctx: dict) -> int:
    """Idempotent: sends the queued copies, each once (also a cron, for copies whose job was lost)."""
    return await emails.send_due(ctx["services"].settings)
