"""The accounts domain's query room: every statement on users, API tokens and account tokens (hand-written SQL as
`Query` constants, the rest through Piccolo's query builder)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, cast

from piccolo.columns.combination import Where

from server.accounts.records import (
    AccountTokenRow,
    ApiTokenRow,
    LiveApiToken,
    ResetRecipient,
    UserRow,
    UserWithHash,
    ViewerFacts,
)
from server.accounts.tables import ApiToken, User
from server.core.sql import Query

# Users ------------------------------------------------------------------------------------------


def _same_username(username: str) -> Where:
    """Case-insensitive equality: LIKE's wildcards (`%`, `_`) and its escape character taken literally."""
    return User.username.ilike(username.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_"))


async def username_taken(username: str) -> bool:
    """Whether a user has this name, whatever its case."""
    return await User.exists().where(_same_username(username))


async def user_by_username_any_case(username: str) -> UserWithHash | None:
    return cast(UserWithHash | None, await User.select().where(_same_username(username)).first())


async def insert_user(username: str, email: str | None, password_hash: str) -> UserRow:
    rows = await User.insert(User(username=username, email=email, password_hash=password_hash)).returning(
        *User.all_columns(exclude=[User.password_hash])
    )
    return cast(UserRow, rows[0])


async def user_id_by_username(username: str) -> int | None:
    row = await User.select(User.id).where(User.username == username).first()
    return row["id"] if row else None


async def add_user(username: str, password_hash: str, is_admin: bool) -> None:
    await User.insert(User(username=username, password_hash=password_hash, is_admin=is_admin))


async def set_password(user_id: int, password_hash: str, is_admin: bool | None = None) -> None:
    values: dict[Any, Any] = {User.password_hash: password_hash}
    if is_admin is not None:
        values[User.is_admin] = is_admin
    await User.update(values).where(User.id == user_id)


async def user_by_username(username: str) -> UserRow | None:
    return cast(
        UserRow | None,
        await User.select(*User.all_columns(exclude=[User.password_hash])).where(User.username == username).first(),
    )


async def users_by_id(ids: Sequence[int]) -> list[UserRow]:
    """Public columns only (never the password hash)."""
    query = User.select(*User.all_columns(exclude=[User.password_hash])).where(User.id.is_in(list(ids)))
    return cast(list[UserRow], await query.output(load_json=True))


# The user and the tasks they own, in one round trip (read on every authenticated request).
VIEWER_FACTS = Query("""
    SELECT u.id, u.username, u.is_admin, u.session_epoch, u.disabled_at IS NOT NULL AS disabled,
           array(SELECT o.task FROM task_owners o WHERE o."user" = u.id) AS owned
      FROM users u WHERE u.id = :id
""")


async def viewer_facts(user_id: int) -> ViewerFacts | None:
    return cast(ViewerFacts | None, await VIEWER_FACTS.row(id=user_id))


# API tokens -------------------------------------------------------------------------------------

_PUBLIC_TOKEN_COLUMNS = ApiToken.all_columns(exclude=[ApiToken.token_hash])

# Only a live token of this user is revoked; anyone else's is not touched (and reported as not found).
REVOKE_TOKEN = Query("""
    UPDATE api_tokens SET revoked_at = now() WHERE id = :id AND "user" = :user AND revoked_at IS NULL
    RETURNING id, name, prefix, scopes, created_at, last_used_at, revoked_at
""")


async def insert_api_token(user_id: int, name: str, prefix: str, token_hash: str, scopes: list[str]) -> ApiTokenRow:
    rows = await ApiToken.insert(
        ApiToken(user=user_id, name=name, prefix=prefix, token_hash=token_hash, scopes=scopes)
    ).returning(*_PUBLIC_TOKEN_COLUMNS)
    return cast(ApiTokenRow, rows[0])


async def live_api_tokens(user_id: int) -> list[ApiTokenRow]:
    query = ApiToken.select(*_PUBLIC_TOKEN_COLUMNS).where(ApiToken.user == user_id, ApiToken.revoked_at.is_null())
    return cast(list[ApiTokenRow], await query)


async def live_api_tokens_by_id(ids: Sequence[int]) -> list[ApiTokenRow]:
    query = ApiToken.select(*_PUBLIC_TOKEN_COLUMNS).where(ApiToken.id.is_in(list(ids)), ApiToken.revoked_at.is_null())
    return cast(list[ApiTokenRow], await query)


async def revoke_api_token(user_id: int, token_id: int) -> ApiTokenRow | None:
    return cast(ApiTokenRow | None, await REVOKE_TOKEN.row(id=token_id, user=user_id))


async def live_api_token_by_prefix(prefix: str) -> LiveApiToken | None:
    return cast(
        LiveApiToken | None, await ApiToken.select().where(ApiToken.prefix == prefix, ApiToken.revoked_at.is_null()).first()
    )


async def mark_api_token_used(token_id: int, at: datetime) -> None:
    await ApiToken.update({ApiToken.last_used_at: at}).where(ApiToken.id == token_id)


# Sessions ---------------------------------------------------------------------------------------

SESSION_EPOCH = Query("SELECT session_epoch FROM users WHERE id = :id")


async def session_epoch(user_id: int) -> int | None:
    """The account's current session epoch; None when the account is gone."""
    row = await SESSION_EPOCH.row(id=user_id)
    return row["session_epoch"] if row else None


# Email and account tokens (server/accounts/recovery.py) ------------------------------------------

# A new address starts unverified; the same address keeps its verification.
SET_EMAIL = Query("""
    UPDATE users SET email = :email::varchar,
           email_verified_at = CASE WHEN email IS NOT DISTINCT FROM :email::varchar THEN email_verified_at END
     WHERE id = :id
    RETURNING email_verified_at
""")

# Verified only if the address is still the one the token was sent to.
VERIFY_EMAIL = Query("""
    UPDATE users SET email_verified_at = now() WHERE id = :id AND email = :email
    RETURNING id, username, email
""")

RESET_RECIPIENT = Query("""
    SELECT id, username, email FROM users
     WHERE email_verified_at IS NOT NULL AND (lower(username) = lower(:who) OR email = lower(:who))
     ORDER BY (lower(username) = lower(:who)) DESC
     LIMIT 1
""")

INSERT_ACCOUNT_TOKEN = Query("""
    INSERT INTO account_tokens ("user", purpose, selector, token_hash, email, expires_at)
    VALUES (:user, :purpose, :selector, :token_hash, :email, now() + make_interval(secs => :ttl))
    RETURNING expires_at
""")

# Issuing a token locks its account first (a statement of its own, so that the next one sees what a concurrent issuer
# committed meanwhile): only the latest token of a purpose stays live.
LOCK_USER = Query("SELECT id FROM users WHERE id = :id FOR UPDATE")

# Outstanding tokens of one purpose end when a new one is issued or one of them is used.
RETIRE_ACCOUNT_TOKENS = Query("""
    UPDATE account_tokens SET used_at = now() WHERE "user" = :user AND purpose = :purpose AND used_at IS NULL
""")

ACCOUNT_TOKEN_BY_SELECTOR = Query("""
    SELECT id, "user", purpose, token_hash, email, expires_at, used_at FROM account_tokens WHERE selector = :selector
""")

# Single use: only one caller marks a live token used (the row lock orders two at once).
USE_ACCOUNT_TOKEN = Query("""
    UPDATE account_tokens SET used_at = now() WHERE id = :id AND used_at IS NULL AND expires_at > now() RETURNING id
""")

RESET_PASSWORD = Query("""
    UPDATE users SET password_hash = :password_hash, session_epoch = session_epoch + 1 WHERE id = :id
    RETURNING username, session_epoch
""")


async def set_email(user_id: int, email: str | None) -> bool:
    """Store the address; True when it is (still) verified."""
    row = await SET_EMAIL.row(id=user_id, email=email)
    return bool(row and row["email_verified_at"])


async def verify_email(user_id: int, email: str) -> dict | None:
    return await VERIFY_EMAIL.row(id=user_id, email=email)


async def reset_recipient(who: str) -> ResetRecipient | None:
    """The account named by this username (any case) or verified email, if it has a verified email."""
    return cast(ResetRecipient | None, await RESET_RECIPIENT.row(who=who))


async def insert_account_token(
    user_id: int, purpose: str, selector: str, token_hash: str, email: str | None, ttl_s: int
) -> datetime:
    row = await INSERT_ACCOUNT_TOKEN.row(
        user=user_id, purpose=purpose, selector=selector, token_hash=token_hash, email=email, ttl=float(ttl_s)
    )
    assert row is not None
    return row["expires_at"]


async def retire_account_tokens(user_id: int, purpose: str) -> None:
    """In a transaction: lock the account, then retire its live tokens of this purpose."""
    await LOCK_USER.execute(id=user_id)
    await RETIRE_ACCOUNT_TOKENS.execute(user=user_id, purpose=purpose)


async def account_token_by_selector(selector: str) -> AccountTokenRow | None:
    return cast(AccountTokenRow | None, await ACCOUNT_TOKEN_BY_SELECTOR.row(selector=selector))


async def use_account_token(token_id: int) -> bool:
    return await USE_ACCOUNT_TOKEN.row(id=token_id) is not None


async def reset_password(user_id: int, password_hash: str) -> dict | None:
    return await RESET_PASSWORD.row(id=user_id, password_hash=password_hash)


# Admins' account changes (server/admin/service.py, each in the transaction that writes its audit row) -------------

# Locks every admin row: two demotions at once cannot leave the platform without an admin.
LOCK_ADMINS = Query("SELECT id FROM users WHERE is_admin ORDER BY id FOR UPDATE")

SET_ADMIN = Query("UPDATE users SET is_admin = :admin WHERE id = :id RETURNING id, username, is_admin")

# Disabling also raises the session epoch: every session ends at once (and stays ended once enabled again).
SET_DISABLED = Query("""
    UPDATE users
       SET disabled_at = CASE WHEN :disabled THEN coalesce(disabled_at, now()) END,
           disabled_reason = CASE WHEN :disabled THEN :reason ELSE '' END,
           session_epoch = session_epoch + CASE WHEN :disabled THEN 1 ELSE 0 END
     WHERE id = :id
    RETURNING id, username, disabled_at, disabled_reason
""")

RAISE_EPOCH = Query("UPDATE users SET session_epoch = session_epoch + 1 WHERE id = :id RETURNING id, username")


async def lock_admins() -> list[int]:
    """In a transaction: the admins' ids, their rows locked until it ends."""
    return [row["id"] for row in await LOCK_ADMINS.rows()]


async def set_admin(user_id: int, admin: bool) -> dict | None:
    return await SET_ADMIN.row(id=user_id, admin=admin)


async def set_disabled(user_id: int, disabled: bool, reason: str) -> dict | None:
    return await SET_DISABLED.row(id=user_id, disabled=disabled, reason=reason)


async def raise_session_epoch(user_id: int) -> dict | None:
    return await RAISE_EPOCH.row(id=user_id)
