"""A person's data (issue #34 point 6): everything the platform holds about an account as JSON (exportMyData), and
the account's deletion (deleteMyAccount). Deleting replaces the username by a keyed pseudonym and removes the email,
credentials, inbox and crowd platforms' ids; the examples, votes and other work stay as the tasks' data under the
pseudonym, except in tasks whose config says `personal_data.on_account_deletion: remove`, where they are removed in the
same transaction and what they counted for is recomputed (server/annotation/removal/; docs/api.md says so;
personal_queries.py lists, table by table, what is forgotten, kept and removed)."""

from __future__ import annotations

import datetime as dt
import logging
import time
from typing import Any

from redis.exceptions import RedisError

from server.accounts import credentials
from server.accounts import personal_queries as queries
from server.accounts.service import forget_session_epoch
from server.accounts.viewer import Principal
from server.admin import audit
from server.admin.records import AuditAction, AuditTarget
from server.annotation.exports.release import anonymous_id
from server.annotation.removal import service as removal
from server.core import db, events
from server.core.errors import FieldProblem, ServiceError, invalid
from server.core.i18n import tr
from server.core.services import Services
from server.core.storable import check_text
from server.tasks import reads as task_reads

log = logging.getLogger("dynabench.accounts")

FRESH_LOGIN_S = 600  # without the password, a session at most this old (crowd accounts have no password)


def pseudonym_of(user_id: int, key: str) -> str:
    """The deleted account's name: the exports' keyed pseudonym, so released data and the platform agree."""
    return f"deleted-{anonymous_id(user_id, key)}"


async def my_data(user_id: int) -> dict[str, Any]:
    """Every row about the account, by table (credentials' hashes left out)."""
    account = await queries.ACCOUNT.row(user=user_id)
    tables: dict[str, Any] = {}
    for table in queries.ACCOUNT_COLUMNS:
        tables[table] = [r["row"] for r in await queries.rows_of(table).rows(user=user_id)]
    tables["conversation_turns"] = [r["row"] for r in await queries.CONVERSATION_TURNS.rows(user=user_id)]
    return {
        "generated_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "account": account["row"] if account else None,
        "tables": tables,
        "removed_if_deleted": await tasks_removing_work_of(user_id),
    }


async def tasks_removing_work_of(user_id: int) -> list[dict[str, str]]:
    """The tasks (code, name) in which deleting the account would remove its work (their config says so)."""
    tasks = await task_reads.tasks_removing_work()
    found = (await removal.tasks_with_work([user_id], [t["id"] for t in tasks])).get(user_id, [])
    return [{"code": t["code"], "name": t["name"]} for t in tasks if t["id"] in found]


def _confirmed(principal: Principal, password_hash: str, password: str | None, session_ttl: int) -> None:
    if password:
        check_text({"password": password})
        if password_hash == "!" or not credentials.verify_password(password_hash, password):
            raise invalid(tr("The password is not right."), FieldProblem("password", tr("is not right")))
        return
    issued = (principal.expires_at or 0) - session_ttl
    if principal.via_token or time.time() - issued > FRESH_LOGIN_S:
        raise invalid(
            tr("Confirm with your password (or log in again: a session less than 10 minutes old needs none)."),
            FieldProblem("password", tr("is required")),
        )


async def delete_account(services: Services, principal: Principal, password: str | None) -> str:
    """Forget the account's personal data in one transaction; its sessions and tokens stop at once. The pseudonym."""
    user_id = principal.user_id
    pseudonym = pseudonym_of(user_id, services.settings.jwt_secret)
    async with db.transaction():
        account = await queries.LOCK_ACCOUNT.row(user=user_id)
        if account is None:
            raise ServiceError("AUTHENTICATION_FAILED", tr("Your session has expired or is invalid; log in again."))
        _confirmed(principal, account["password_hash"], password, services.settings.jwt_ttl_seconds)
        if account["is_admin"] and not await queries.OTHER_ADMINS.value(user=user_id):
            raise ServiceError("CONFLICT", tr("This is the last admin: make someone else an admin first."))
        # The account's row is locked: nothing of it can be written in any task meanwhile (foreign keys wait).
        removed = await removal.remove_work(user_id, [t["id"] for t in await task_reads.tasks_removing_work()])
        await queries.FORGET_ACCOUNT.execute(user=user_id, pseudonym=pseudonym)
        await queries.FORGET_CREDENTIALS.execute(user=user_id)
        await queries.FORGET_CROWD_IDS.execute(user=user_id, pseudonym=pseudonym)
        await audit.record(user_id, AuditAction.ACCOUNT_DELETED, AuditTarget.USER, user_id, pseudonym)
    forget_session_epoch(user_id)
    try:  # open sockets re-check their credentials and close
        await events.publish(services.redis, events.CredentialsRevoked(user_id=user_id, token_id=0))
    except (RedisError, OSError):
        log.warning("could not announce the deletion of account %s", user_id, exc_info=True)
    await removal.announce(services, removed)
    return pseudonym


async def remove_work_of_deleted_accounts(services: Services) -> int:
    """The cron's sweep: work of deleted accounts left in tasks that remove it (a write that waited for the deletion's
    lock and landed after it, or a task whose owners chose `remove` later) is removed as deleteMyAccount would.
    Idempotent: what it removes is found from rows. Returns how many accounts had some."""
    tasks = [t["id"] for t in await task_reads.tasks_removing_work()]
    deleted = [r["id"] for r in await queries.DELETED_ACCOUNTS.rows()] if tasks else []
    found = await removal.tasks_with_work(deleted, tasks)
    for user_id, where in sorted(found.items()):
        async with db.transaction():
            if await queries.LOCK_ACCOUNT.row(user=user_id) is None:
                continue
            removed = await removal.remove_work(user_id, where)
        log.info("removed a deleted account's work (%s examples, %s votes)", len(removed.examples), removed.votes)
        await removal.announce(services, removed)
    return len(found)
