"""Email copies of notifications, sent by the worker (server/notifications/job_functions.py), never in a request: only to a
verified address, only for the kinds the user opted into, and each at most once."""

from __future__ import annotations

import logging

from server.core import db
from server.core.mail import MailError, mail_configured, send_mail
from server.core.settings import Settings
from server.notifications import queries
from server.notifications.messages import message
from server.notifications.records import EmailState

log = logging.getLogger("dynabench.notifications")

BATCH = 50
MAX_ATTEMPTS = 5  # then the copy is given up (the notification stays in the inbox)


async def send_due(settings: Settings) -> int:
    """Send the queued copies (claimed under SKIP LOCKED, so two workers never send the same one). Returns how many
    were sent. A refused message stays queued for the next run, up to MAX_ATTEMPTS."""
    sent = 0
    async with db.transaction():
        for row in await queries.claim_emails(BATCH):
            if not row["email"] or not mail_configured(settings):
                await queries.set_email_state(row["id"], EmailState.SKIPPED)
                continue
            text = message(row["kind"], row["data"])
            link = f"{settings.public_url}/#{text.link}" if settings.public_url else text.link
            body = f"Hello {row['username']},\n\n{text.title}.\n{text.body}\n\n{link}\n\n" + (
                "You receive this because you asked for email about this kind of notification; change it in your "
                "inbox's settings.\n"
            )
            try:
                await send_mail(settings, row["email"], f"Dynabench: {text.title}", body)
            except MailError:
                failed = row["email_attempts"] + 1 >= MAX_ATTEMPTS
                await queries.set_email_state(row["id"], EmailState.FAILED if failed else EmailState.QUEUED, attempt=True)
                continue
            await queries.set_email_state(row["id"], EmailState.SENT, attempt=True)
            sent += 1
    return sent
