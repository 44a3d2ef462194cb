"""Accounts that can recover: an optional email, verified by a mailed single-use link, and password resets mailed to
a verified email only (or handed over by an admin when the platform sends no mail).

Tokens (`credentials.new_account_token`) are random, stored hashed, single-use and expiring; they are found by a
selector and compared in constant time. A reset request answers the same whoever it names: the account is looked
up, limited per account and mailed by a job (server/accounts/job_functions.py), never while the client waits. A reset raises the
account's session epoch, which ends all its sessions (service.resolve_principal), and tells its open sockets.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from asyncpg.exceptions import UniqueViolationError
from redis.exceptions import RedisError

from server.accounts import credentials, queries
from server.accounts import jobs as account_jobs
from server.accounts import service as accounts
from server.accounts.mails import reset_mail, verification_mail
from server.accounts.records import AccountTokenPurpose
from server.admin import audit
from server.admin.records import AuditAction, AuditTarget
from server.core import db, events, jobs, rate_limits
from server.core.errors import FieldProblem, ServiceError, conflict, invalid, not_found
from server.core.i18n import DEFAULT_LOCALE, reader_locale, tr, translate
from server.core.mail import mail_configured, send_mail
from server.core.rate_limits import Action
from server.core.services import Services
from server.core.settings import Settings
from server.core.storable import check_text, text_problem

log = logging.getLogger("dynabench.accounts")

VERIFY_PATH, RESET_PATH = "verify-email", "reset-password"  # the PWA's pages (hash routes)
IDENTIFIER_MAX = 254
_DUMMY_TOKEN_HASH = credentials.hash_api_token("not-a-real-token")
_BAD_TOKEN = tr("This link is invalid, expired or already used; ask for a new one.")


@dataclass(frozen=True)
class EmailChange:
    email: str | None
    verified: bool
    verification_sent: bool  # False when the platform sends no mail (the address then stays unverified)


@dataclass(frozen=True)
class ResetRequest:
    by_admin: bool  # no mail on this platform: an admin hands over a reset link (adminIssuePasswordReset)


@dataclass(frozen=True)
class IssuedReset:
    token: str
    link: str
    expires_at: datetime


def link(settings: Settings, path: str, token: str) -> str:
    """The PWA page a token is used on (absolute when PUBLIC_URL is set)."""
    return f"{settings.public_url}/#/{path}?token={token}"


# Email -----------------------------------------------------------------------------------------------------------


def _normalized_email(email: str | None) -> str | None:
    email = (email or "").strip().lower()
    if not email:
        return None
    if len(email) > accounts.EMAIL_MAX or not accounts.EMAIL.match(email) or text_problem(email):
        raise invalid(tr("Some fields are not valid."), FieldProblem("email", tr("is not an email address")))
    return email


async def set_email(services: Services, user_id: int, email: str | None) -> EmailChange:
    """Store (or, when empty, remove) the account's email: a new address starts unverified and a verification link
    is mailed to it by a job; the same address keeps its verification."""
    address = _normalized_email(email)
    async with db.transaction():
        verified = await queries.set_email(user_id, address)
        await queries.retire_account_tokens(user_id, AccountTokenPurpose.VERIFY_EMAIL)
    sending = address is not None and not verified and mail_configured(services.settings)
    if sending:
        await jobs.enqueue(services.arq, account_jobs.send_email_verification, user_id, address, reader_locale.get())
    return EmailChange(address, verified, sending)


async def mail_email_verification(settings: Settings, user_id: int, email: str, locale: str = DEFAULT_LOCALE) -> bool:
    """The job: a fresh verification link to the address, if it is still the account's unverified email; in
    `locale`, the language of the request that set the address."""
    users = await queries.users_by_id([user_id])
    if not users or users[0]["email"] != email or users[0]["email_verified_at"] is not None:
        return False
    new = credentials.new_account_token()
    async with db.transaction():
        await queries.retire_account_tokens(user_id, AccountTokenPurpose.VERIFY_EMAIL)
        await queries.insert_account_token(
            user_id, AccountTokenPurpose.VERIFY_EMAIL, new.selector, new.token_hash, email, settings.email_token_ttl_seconds
        )
    hours = max(1, settings.email_token_ttl_seconds // 3600)
    mail = verification_mail(users[0]["username"], link(settings, VERIFY_PATH, new.token), new.token, hours)
    await send_mail(settings, email, translate(mail.subject, locale), translate(mail.body, locale))
    return True


async def verify_email(token: str) -> str:
    """Mark the address the token was sent to as verified (once); the address, verified."""
    row = await _live_token(token, AccountTokenPurpose.VERIFY_EMAIL)
    try:
        async with db.transaction():
            if not await queries.use_account_token(row["id"]) or row["email"] is None:
                raise invalid(_BAD_TOKEN, FieldProblem("token", tr("invalid, expired or used")))
            if await queries.verify_email(row["user"], row["email"]) is None:
                raise invalid(tr("Your email address changed since this link was sent."), FieldProblem("token", tr("outdated")))
    except UniqueViolationError:
        raise conflict(tr("Another account has verified this email address."), "email") from None
    return row["email"]


# Password resets ---------------------------------------------------------------------------------------------------


async def request_password_reset(services: Services, who: str) -> ResetRequest:
    """The same answer whoever `who` names; the job mails a reset link if it names an account with a verified email."""
    who = who.strip()
    check_text({"usernameOrEmail": who})
    if not 1 <= len(who) <= IDENTIFIER_MAX:
        raise invalid(
            tr("Some fields are not valid."),
            FieldProblem("usernameOrEmail", tr("must be 1–{max} characters", max=IDENTIFIER_MAX)),
        )
    if not mail_configured(services.settings):
        return ResetRequest(by_admin=True)
    await jobs.enqueue(services.arq, account_jobs.send_password_reset, who, reader_locale.get())
    return ResetRequest(by_admin=False)


async def mail_password_reset(services: Services, who: str, locale: str = DEFAULT_LOCALE) -> bool:
    """The job: a reset link to the verified email of the account `who` names (username or verified email), within
    the per-account limit; silently nothing otherwise. In `locale`, the language of the request. True when a message
    was sent."""
    recipient = await queries.reset_recipient(who)
    if recipient is None:
        return False
    try:
        await rate_limits.take(services.redis, services.settings, Action.PASSWORD_RESET, account=recipient["id"])
    except ServiceError:
        log.info("password reset for account %s not sent: its hourly limit is reached", recipient["id"])
        return False
    settings = services.settings
    new = credentials.new_account_token()
    async with db.transaction():
        await queries.retire_account_tokens(recipient["id"], AccountTokenPurpose.RESET_PASSWORD)
        await queries.insert_account_token(
            recipient["id"],
            AccountTokenPurpose.RESET_PASSWORD,
            new.selector,
            new.token_hash,
            recipient["email"],
            settings.password_reset_ttl_seconds,
        )
    minutes = max(1, settings.password_reset_ttl_seconds // 60)
    mail = reset_mail(recipient["username"], link(settings, RESET_PATH, new.token), new.token, minutes)
    await send_mail(settings, recipient["email"], translate(mail.subject, locale), translate(mail.body, locale))
    return True


async def issue_password_reset(settings: Settings, username: str, actor_id: int | None = None) -> IssuedReset:
    """For an admin to hand over: a one-time reset link for this account (its earlier reset links stop working).
    With `actor_id`, the admin's audit row is written in the same transaction (server/admin/audit.py)."""
    user = await queries.user_by_username_any_case(username.strip()) if username.strip() else None
    if user is None:
        raise not_found(tr("That user"))
    new = credentials.new_account_token()
    async with db.transaction():
        await queries.retire_account_tokens(user["id"], AccountTokenPurpose.RESET_PASSWORD)
        expires_at = await queries.insert_account_token(
            user["id"],
            AccountTokenPurpose.RESET_PASSWORD,
            new.selector,
            new.token_hash,
            None,
            settings.password_reset_ttl_seconds,
        )
        if actor_id is not None:
            await audit.record(actor_id, AuditAction.PASSWORD_RESET_ISSUED, AuditTarget.USER, user["id"], user["username"])
    return IssuedReset(new.token, link(settings, RESET_PATH, new.token), expires_at)


async def reset_password(services: Services, token: str, new_password: str) -> str:
    """Set a new password with a reset token (once): every session of the account ends. The account's username."""
    if problems := accounts.password_problems(new_password, "newPassword"):
        raise invalid(tr("Some fields are not valid."), *problems)
    row = await _live_token(token, AccountTokenPurpose.RESET_PASSWORD)
    password_hash = credentials.hash_password(new_password)  # before the transaction: argon2 takes a while
    async with db.transaction():
        if not await queries.use_account_token(row["id"]):
            raise invalid(_BAD_TOKEN, FieldProblem("token", tr("invalid, expired or used")))
        changed = await queries.reset_password(row["user"], password_hash)
        await queries.retire_account_tokens(row["user"], AccountTokenPurpose.RESET_PASSWORD)
    if changed is None:
        raise invalid(_BAD_TOKEN, FieldProblem("token", tr("invalid, expired or used")))
    accounts.forget_session_epoch(row["user"])
    try:  # open sockets re-check their credentials (their session's epoch is over); token 0: no API token was revoked
        await events.publish(services.redis, events.CredentialsRevoked(user_id=row["user"], token_id=0))
    except (RedisError, OSError):
        log.warning("could not announce the password reset of account %s", row["user"], exc_info=True)
    return changed["username"]


async def _live_token(token: str, purpose: AccountTokenPurpose) -> dict:
    """The token's row when it matches (compared in constant time), else INVALID_INPUT; use it in a transaction."""
    check_text({"token": token})
    selector = credentials.account_token_selector(token)
    row = await queries.account_token_by_selector(selector) if selector else None
    matches = credentials.account_token_matches(token, row["token_hash"] if row else _DUMMY_TOKEN_HASH)
    if row is None or not matches or row["purpose"] != purpose or row["used_at"] is not None:
        raise invalid(_BAD_TOKEN, FieldProblem("token", tr("invalid, expired or used")))
    return dict(row)
