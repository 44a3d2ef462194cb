"""Accounts: sign-up, log-in, API tokens, and resolving who a request comes from."""

from __future__ import annotations

import functools
import logging
import re
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import cast

from asyncpg.exceptions import UniqueViolationError
from redis.asyncio import Redis
from redis.exceptions import RedisError

from server.accounts import credentials, lockout, queries
from server.accounts.lockout import LoginRules
from server.accounts.records import ApiTokenRow, UserRow
from server.accounts.viewer import Principal, Viewer
from server.core import events
from server.core.client_address import UNKNOWN
from server.core.errors import FieldProblem, ServiceError, conflict, invalid, not_found
from server.core.i18n import tr
from server.core.storable import check_text, text_problem

log = logging.getLogger("dynabench.accounts")

USERNAME = re.compile(r"^[A-Za-z0-9_.-]{3,32}$")
EMAIL = re.compile(r"^[^@\s]{1,64}@[^@\s]{1,189}\.[^@\s]{1,63}$")
EMAIL_MAX = 254  # users.email is a varchar(254)
PASSWORD_MIN, PASSWORD_MAX = 8, 256
DISABLED_MESSAGE = tr("This account is disabled by an administrator: you cannot log in or use its API tokens.")


@dataclass(frozen=True)
class Session:
    token: str
    user: UserRow


def password_problems(password: str, field_name: str = "password") -> list[FieldProblem]:
    """The password rules (sign-up and password reset alike)."""
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        return [FieldProblem(field_name, tr("must be {min}–{max} characters", min=PASSWORD_MIN, max=PASSWORD_MAX))]
    if problem := text_problem(password):
        return [FieldProblem(field_name, problem)]
    return []


def _check_credentials_shape(username: str, password: str, email: str | None) -> None:
    problems: list[FieldProblem] = []
    if not USERNAME.match(username):
        problems.append(FieldProblem("username", tr("3–32 characters: letters, digits, '_', '.', '-'")))
    problems += password_problems(password)
    if email is not None and (len(email) > EMAIL_MAX or not EMAIL.match(email) or text_problem(email)):
        problems.append(FieldProblem("email", tr("is not an email address (at most {max} characters)", max=EMAIL_MAX)))
    if problems:
        raise invalid(tr("Some fields are not valid."), *problems)


async def sign_up(username: str, password: str, email: str | None, secret: str, ttl: int) -> Session:
    username, email = username.strip(), (email.strip().lower() if email else None)
    _check_credentials_shape(username, password, email)
    taken = await queries.username_taken(username)
    if taken:
        raise conflict(tr("That username is taken."), "username")
    try:
        user = await queries.insert_user(username, email, credentials.hash_password(password))
    except UniqueViolationError as exc:
        field_name = "email" if "email" in str(exc) else "username"
        message = tr("That email is taken.") if field_name == "email" else tr("That username is taken.")
        raise conflict(message, field_name) from None
    return Session(credentials.issue_session_token(user["id"], secret, ttl, epoch=user["session_epoch"]), user)


async def create_user(username: str, password: str, is_admin: bool = False) -> UserRow | None:
    """For the CLI and seeding: create or update a user with this password."""
    password_hash = credentials.hash_password(password)
    existing = await queries.user_id_by_username(username)
    if existing is not None:
        await queries.set_password(existing, password_hash, is_admin=is_admin)
    else:
        await queries.add_user(username, password_hash, is_admin)
    return await queries.user_by_username(username)


DEFAULT_LOGIN_RULES = LoginRules()


async def log_in(
    username: str,
    password: str,
    secret: str,
    ttl: int,
    redis: Redis | None = None,
    rules: LoginRules = DEFAULT_LOGIN_RULES,
    address: str = UNKNOWN,
) -> Session:
    """A session for the right password; failures are limited per account and address (lockout.py)."""
    check_text({"username": username, "password": password})
    if redis is not None:
        await lockout.check(redis, rules, username, address)
    row = await queries.user_by_username_any_case(username.strip()) if username else None
    # Verify against a dummy hash when the user is unknown so timing does not reveal which usernames exist.
    password_hash = row["password_hash"] if row else _dummy_hash()
    if not credentials.verify_password(password_hash, password) or row is None:
        if redis is not None:
            await lockout.failed(redis, rules, username, address)
        raise ServiceError("INVALID_CREDENTIALS", tr("Wrong username or password."))
    if redis is not None:
        await lockout.succeeded(redis, username, address)
    if row["disabled_at"] is not None:  # said only to whoever knows the password
        raise ServiceError("AUTHENTICATION_FAILED", DISABLED_MESSAGE)
    if credentials.password_needs_rehash(row["password_hash"]):
        await queries.set_password(row["id"], credentials.hash_password(password))
    user = cast(UserRow, {key: value for key, value in row.items() if key != "password_hash"})
    return Session(credentials.issue_session_token(row["id"], secret, ttl, epoch=row["session_epoch"]), user)


@functools.cache
def _dummy_hash() -> str:
    """Made on first use (an argon2 hash takes a tenth of a second at every process start otherwise)."""
    return credentials.hash_password("not-a-real-password")


async def create_api_token(viewer: Viewer, name: str, scopes: list[str]) -> tuple[str, ApiTokenRow]:
    name = name.strip()
    problems = []
    if not 1 <= len(name) <= 100:
        problems.append(FieldProblem("name", tr("must be 1–100 characters")))
    elif problem := text_problem(name):
        problems.append(FieldProblem("name", problem))
    unknown = sorted(set(scopes) - set(credentials.API_TOKEN_SCOPES))
    if unknown or not scopes:
        problems.append(
            FieldProblem("scopes", tr("choose one or more of {scopes}", scopes=", ".join(credentials.API_TOKEN_SCOPES)))
        )
    if problems:
        raise invalid(tr("Some fields are not valid."), *problems)
    new = credentials.new_api_token()
    row = await queries.insert_api_token(viewer.user_id, name, new.prefix, new.token_hash, sorted(set(scopes)))
    return new.token, row


async def own_api_tokens(user_id: int) -> list[ApiTokenRow]:
    return await queries.live_api_tokens(user_id)


async def live_api_tokens(token_ids: list[int]) -> list[ApiTokenRow]:
    """Live tokens among these ids, whoever owns them (the caller applies `can_view_api_token`)."""
    return await queries.live_api_tokens_by_id(token_ids) if token_ids else []


async def revoke_api_token(user_id: int, token_id: int, redis: Redis | None = None) -> ApiTokenRow:
    """Revoke one of the user's own live tokens; another user's token is reported as not found. Every request
    after this one is refused; WebSockets open with it are told (CredentialsRevoked) and close."""
    row = await queries.revoke_api_token(user_id, token_id)
    if row is None:
        raise not_found(tr("That API token (among your live tokens)"))
    if redis is not None:
        try:
            await events.publish(redis, events.CredentialsRevoked(user_id=user_id, token_id=token_id))
        except (RedisError, OSError):  # the sockets' hub re-checks every credential when Redis is back (resync)
            log.warning("could not announce the revocation of API token %s", token_id, exc_info=True)
    return row


async def resolve_principal(authorization: str | None, secret: str) -> Principal | None:
    """Who an `Authorization: Bearer ...` value names; None when absent.

    A session token is checked by its signature and its account's session epoch (`_epoch_holds`: at most one
    small read per account every few seconds); an API token is looked up
    (and then yields the full Viewer). Raises ServiceError(AUTHENTICATION_FAILED) when credentials are
    present but invalid, so that a client with an expired session is told so rather than silently
    treated as anonymous.
    """
    if not authorization:
        return None
    scheme, _, token = authorization.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise ServiceError("AUTHENTICATION_FAILED", tr("Use 'Authorization: Bearer <session or API token>'."))
    prefix = credentials.api_token_prefix(token)
    if prefix is not None:
        row = await queries.live_api_token_by_prefix(prefix)
        if row is None or not credentials.api_token_matches(token, row["token_hash"]):
            raise ServiceError("AUTHENTICATION_FAILED", tr("This API token is unknown or revoked."))
        await queries.mark_api_token_used(row["id"], datetime.now(UTC))
        viewer = await _viewer_for(row["user"], scopes=frozenset(row["scopes"]), via_token=True)
        if viewer is None:
            raise ServiceError("AUTHENTICATION_FAILED", tr("This API token is unknown or revoked."))
        return viewer
    session = credentials.read_session(token, secret)
    if session is None or not await _epoch_holds(session.user_id, session.epoch):
        raise _session_invalid()
    return Principal(user_id=session.user_id, expires_at=session.expires, epoch=session.epoch)


def upload_refusal_checker(secret: str):
    """For the body limits (server/core/body_limits.py), before any request body is read: why an Authorization value
    may not upload, as (error code, message) — none at all, or credentials that name no live account — or None."""

    async def refusal(authorization: str | None) -> tuple[str, str] | None:
        try:
            principal = await resolve_principal(authorization, secret)
        except ServiceError as exc:
            return exc.code, str(exc.message)
        return ("AUTHENTICATION_REQUIRED", str(tr("Sign in (or send an API token) to do this."))) if principal is None else None

    return refusal


# Each process remembers, for EPOCH_RECHECK_S, that an account's session epoch matched: a session costs at most one
# small read per account in that time, and a password reset ends the account's sessions everywhere within it (at
# once in the process that reset it, and wherever the account facts are read: complete_viewer compares them fresh).
# A mismatch is always read again (never refused from memory).
EPOCH_RECHECK_S = 5.0
_EPOCHS: dict[int, tuple[int, float]] = {}


async def _epoch_holds(user_id: int, epoch: int) -> bool:
    now = time.monotonic()
    known = _EPOCHS.get(user_id)
    if known is not None and known[0] == epoch and now - known[1] < EPOCH_RECHECK_S:
        return True
    current = await queries.session_epoch(user_id)
    if current is None:
        _EPOCHS.pop(user_id, None)
        return False
    if len(_EPOCHS) >= 100_000:
        _EPOCHS.clear()
    _EPOCHS[user_id] = (current, now)
    return current == epoch


def forget_session_epoch(user_id: int) -> None:
    """After this process raised an account's epoch: its earlier sessions are refused from the next request on."""
    _EPOCHS.pop(user_id, None)


async def resolve_viewer(authorization: str | None, secret: str) -> Viewer | None:
    """The principal with its account facts (admin flag, owned tasks) read from the database."""
    principal = await resolve_principal(authorization, secret)
    return await complete_viewer(principal) if principal is not None else None


async def complete_viewer(principal: Principal) -> Viewer:
    if isinstance(principal, Viewer):
        return principal
    viewer = await _viewer_for(principal.user_id, scopes=principal.scopes, via_token=principal.via_token, epoch=principal.epoch)
    if viewer is None:
        raise _session_invalid()
    return viewer


def _session_invalid() -> ServiceError:
    return ServiceError("AUTHENTICATION_FAILED", tr("Your session has expired or is invalid; log in again."))


async def _viewer_for(
    user_id: int, scopes: frozenset[str] | None = None, via_token: bool = False, epoch: int | None = None
) -> Viewer | None:
    """The account facts; None when the account is gone or (for a session) its epoch has moved on. A disabled
    account is refused (AUTHENTICATION_FAILED, saying so)."""
    user = await queries.viewer_facts(user_id)
    if user is None or (epoch is not None and epoch != user["session_epoch"]):
        return None
    if user["disabled"]:
        raise ServiceError("AUTHENTICATION_FAILED", DISABLED_MESSAGE)
    kwargs = {"scopes": scopes} if scopes is not None else {}
    return Viewer(
        user_id=user["id"],
        username=user["username"],
        is_admin=user["is_admin"],
        via_token=via_token,
        epoch=epoch,
        owned_task_ids=frozenset(user["owned"] or ()),
        **kwargs,
    )
