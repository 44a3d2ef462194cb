"""The accounts domain's background jobs, declared (server/core/jobs.py); server/accounts/job_functions.py runs them."""

from __future__ import annotations

from server.core.i18n import DEFAULT_LOCALE
from server.core.jobs import job


@job
async def send_email_verification(user_id: int, email: str, locale: str = DEFAULT_LOCALE) -> None:
    """Mail a verification link to the address an account set (a retry retires the link mailed before)."""


@job
async def send_password_reset(who: str, locale: str = DEFAULT_LOCALE) -> None:
    """Mail a reset link if `who` names an account with a verified email (the request answered the same anyway)."""


@job
async def remove_work_of_deleted_accounts() -> None:
    """Deleted accounts' work left in tasks that remove it, removed as deleteMyAccount would (a cron)."""
