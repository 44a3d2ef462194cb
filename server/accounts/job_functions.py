"""What the worker runs for the accounts domain's jobs (server/accounts/jobs.py): mails of server/accounts/recovery.py,
and the sweep of deleted accounts' work (server/accounts/personal_data.py)."""

from __future__ import annotations

from arq import Retry

from server.accounts import jobs, personal_data, recovery
from server.core.i18n import DEFAULT_LOCALE
from server.core.jobs import runs
from server.core.mail import MailError

MAIL_RETRY_S = 30  # the SMTP server did not take the message: try again later (arq's max_tries bounds it)


@runs(jobs.send_email_verification)
async def send_email_verification(ctx: dict, user_id: int, email: str, locale: str = DEFAULT_LOCALE) -> bool:
    """Idempotent enough: a retry retires the link it made before (only the last one mailed works)."""
    try:
        return await recovery.mail_email_verification(ctx["services"].settings, user_id, email, locale)
    except MailError as exc:
        raise Retry(defer=MAIL_RETRY_S) from exc


@runs(jobs.send_password_reset)
async def send_password_reset(ctx: dict, who: str, locale: str = DEFAULT_LOCALE) -> bool:
    """Nothing for an unknown account or one without a verified email (the request answered the same)."""
    try:
        return await recovery.mail_password_reset(ctx["services"], who, locale)
    except MailError as exc:
        raise Retry(defer=MAIL_RETRY_S) from exc


@runs(jobs.remove_work_of_deleted_accounts)
async def remove_work_of_deleted_accounts(ctx: dict) -> int:
    return await personal_data.remove_work_of_deleted_accounts(ctx["services"])
