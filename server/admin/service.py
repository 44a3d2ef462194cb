"""Admins' actions on accounts and submissions (docs/design.md §14). Each runs in one transaction with its audit row
(server/admin/audit.py) and announces after commit. Who may call them is permissions.administer (the resolver)."""

from __future__ import annotations

import logging

from redis.asyncio import Redis
from redis.exceptions import RedisError

from server.accounts import admin_changes, recovery
from server.accounts import reads as accounts_reads
from server.accounts import service as accounts
from server.accounts.viewer import Viewer
from server.admin import audit, queries
from server.admin.records import AdminModelRow, AdminUserRow, AuditAction, AuditTarget, UserRole
from server.core import db, events
from server.core.errors import FieldProblem, conflict, invalid, not_found
from server.core.i18n import tr
from server.core.services import Services
from server.core.settings import Settings
from server.evaluation.models import takedown
from server.evaluation.records import ModelRow

log = logging.getLogger("dynabench.admin")

SEARCH_MAX = 100
PENDING_MAX = 200


# Users --------------------------------------------------------------------------------------------------------------


async def users_page(
    after: int | None, limit: int, search: str | None, role: UserRole | None, disabled: bool | None
) -> list[AdminUserRow]:
    search = (search or "").strip() or None
    if search is not None and (len(search) > SEARCH_MAX or "\x00" in search):
        raise invalid(tr("Bad search."), FieldProblem("search", tr("at most {max} characters of text", max=SEARCH_MAX)))
    admin = None if role is None else role == UserRole.ADMIN
    return await queries.users_page(after, limit, search, admin, disabled)


async def _user(user_id: int) -> dict:
    users = await accounts_reads.users_by_id([user_id])
    if not users:
        raise not_found(tr("That user"))
    return dict(users[0])


async def set_role(actor: Viewer, user_id: int, role: UserRole) -> dict:
    """Make a user an admin or a plain user. An admin cannot demote themself, and the last admin stays one."""
    admin = role == UserRole.ADMIN
    if not admin and user_id == actor.user_id:
        raise conflict(tr("You cannot remove your own admin role: ask another admin."), "userId")
    async with db.transaction():
        admins = await admin_changes.lock_admins()
        user = await _user(user_id)
        if user["is_admin"] == admin:
            return user  # nothing to change, nothing to record
        if not admin and set(admins) <= {user_id}:
            raise conflict(tr("This is the last admin: make someone else an admin first."), "userId")
        await admin_changes.set_admin(user_id, admin)
        await audit.record(actor.user_id, AuditAction.ROLE_CHANGED, AuditTarget.USER, user_id, user["username"], role.value)
    return await _user(user_id)


async def set_disabled(redis: Redis | None, actor: Viewer, user_id: int, disabled: bool, reason: str) -> dict:
    """Disable (every session and API token refused at once, no log-in) or enable an account again."""
    reason = audit.check_reason(reason, required=disabled)
    if disabled and user_id == actor.user_id:
        raise conflict(tr("You cannot disable your own account."), "userId")
    async with db.transaction():
        user = await _user(user_id)
        if (user["disabled_at"] is not None) == disabled:
            return user  # already so: nothing to record
        await admin_changes.set_disabled(user_id, disabled, reason)
        action = AuditAction.USER_DISABLED if disabled else AuditAction.USER_ENABLED
        await audit.record(actor.user_id, action, AuditTarget.USER, user_id, user["username"], reason)
    if disabled:
        await _sessions_ended(redis, user_id)
    return await _user(user_id)


async def reset_sessions(redis: Redis | None, actor: Viewer, user_id: int) -> dict:
    """End every session of the account (its API tokens stay: revoke those one by one, or disable the account)."""
    async with db.transaction():
        user = await _user(user_id)
        await admin_changes.raise_session_epoch(user_id)
        await audit.record(actor.user_id, AuditAction.SESSIONS_RESET, AuditTarget.USER, user_id, user["username"])
    await _sessions_ended(redis, user_id)
    return user


async def _sessions_ended(redis: Redis | None, user_id: int) -> None:
    accounts.forget_session_epoch(user_id)
    if redis is None:
        return
    try:  # open sockets re-check their credentials (token 0: no single API token was revoked)
        await events.publish(redis, events.CredentialsRevoked(user_id=user_id, token_id=0))
    except (RedisError, OSError):
        log.warning("could not announce the end of the sessions of account %s", user_id, exc_info=True)


async def issue_password_reset(settings: Settings, actor: Viewer, username: str) -> recovery.IssuedReset:
    """adminIssuePasswordReset, recorded in the audit log (in the same transaction as the token)."""
    return await recovery.issue_password_reset(settings, username, actor_id=actor.user_id)


# Tasks ----------------------------------------------------------------------------------------------------------------


async def pending_tasks() -> list[dict]:
    return await queries.pending_tasks(PENDING_MAX)


# Models ---------------------------------------------------------------------------------------------------------------


async def models_page(after: int | None, limit: int, task_id: int | None) -> list[AdminModelRow]:
    return await queries.models_page(after, limit, task_id)


async def take_down_model(services: Services, actor: Viewer, model_id: int, reason: str) -> ModelRow:
    """Take a submission down (server/evaluation/models/takedown.py) with its audit row; idempotent (no second row)."""
    reason = audit.check_reason(reason, required=True)
    async with db.transaction():
        done = await takedown.take_down(model_id, reason)
        if not done.already:
            await audit.record(
                actor.user_id, AuditAction.MODEL_TAKEN_DOWN, AuditTarget.MODEL, model_id, done.model["name"], reason
            )
    await takedown.after_take_down(services, done)
    return done.model  # type: ignore[return-value]
