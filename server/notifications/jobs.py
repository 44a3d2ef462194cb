"""The notifications domain's background jobs, declared (server/core/jobs.py); server/notifications/job_functions.py
runs them."""

from __future__ import annotations

from server.core.jobs import job


@job
async def send_notification_emails() -> None:
    """The email copies users opted into that are due, each sent once."""
