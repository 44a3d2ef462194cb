"""The accounts domain's query room: every statement on users, API tokens and account tokens, as named `Query`
statements. Other domains read these rows through server/accounts/reads.py."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import cast

from server.accounts.records import (
    AccountTokenRow,
    ApiTokenRow,
    LiveApiToken,
    ResetRecipient,
    UserRow,
    UserWithHash,
    ViewerFacts,
)
from server.core.sql import Query

# Users ------------------------------------------------------------------------------------------


# Every column but the password hash (what a user row that crosses a layer may hold).
_PUBLIC_USER = "id, username, email, email_verified_at, is_admin, session_epoch, created_at, disabled_at, disabled_reason"
# Case-insensitive equality: the caller escapes LIKE's wildcards (`%`, `_`) and its escape character (`_like_literal`).
USERNAME_TAKEN = Query("SELECT EXISTS (SELECT 1 FROM users WHERE username ILIKE :pattern)")
USER_BY_USERNAME_ANY_CASE = Query("SELECT * FROM users WHERE username ILIKE :pattern LIMIT 1")
INSERT_USER = Query(f"""
    INSERT INTO users (username, email, password_hash, created_at) VALUES (:username, :email, :password_hash, clock_timestamp())
    RETURNING {_PUBLIC_USER}
""")
USER_ID_BY_USERNAME = Query("SELECT id FROM users WHERE username = :username LIMIT 1")
ADD_USER = Query("""
    INSERT INTO users (username, password_hash, is_admin, created_at)
    VALUES (:username, :password_hash, :is_admin, clock_timestamp())
""")
# A null :is_admin keeps the account's role.
SET_PASSWORD = Query("""
    UPDATE users SET password_hash = :password_hash, is_admin = coalesce(:is_admin::boolean, is_admin) WHERE id = :id
""")
USER_BY_USERNAME = Query(f"SELECT {_PUBLIC_USER} FROM users WHERE username = :username LIMIT 1")
USERS_BY_ID = Query(f"SELECT {_PUBLIC_USER} FROM users WHERE id = ANY(:ids::int[])")


def _like_literal(username: str) -> str:
    """A LIKE pattern that matches this text only: its wildcards and the escape character taken literally."""
    return username.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


async def username_taken(username: str) -> bool:
    """Whether a user has this name, whatever its case."""
    return bool(await USERNAME_TAKEN.value(pattern=_like_literal(username)))


async def user_by_username_any_case(username: str) -> UserWithHash | None:
    return cast(UserWithHash | None, await USER_BY_USERNAME_ANY_CASE.row(pattern=_like_literal(username)))


async def insert_user(username: str, email: str | None, password_hash: str) -> UserRow:
    row = await INSERT_USER.row(username=username, email=email, password_hash=password_hash)
    return cast(UserRow, row)


async def user_id_by_username(username: str) -> int | None:
    return await USER_ID_BY_USERNAME.value(username=username)


async def add_user(username: str, password_hash: str, is_admin: bool) -> None:
    await ADD_USER.execute(username=username, password_hash=password_hash, is_admin=is_admin)


async def set_password(user_id: int, password_hash: str, is_admin: bool | None = None) -> None:
    await SET_PASSWORD.execute(id=user_id, password_hash=password_hash, is_admin=is_admin)


async def user_by_username(username: str) -> UserRow | None:
    return cast(UserRow | None, await USER_BY_USERNAME.row(username=username))


async def users_by_id(ids: Sequence[int]) -> list[UserRow]:
    """Public columns only (never the password hash)."""
    return cast(list[UserRow], await USERS_BY_ID.rows(ids=list(ids)))


# The user and the tasks they own, in one round trip (read on every authenticated request).
VIEWER_FACTS = Query("""
    SELECT u.id, u.username, u.is_admin, u.session_epoch, u.disabled_at IS NOT NULL AS disabled,
           array(SELECT o.task FROM task_owners o WHERE o."user" = u.id) AS owned
      FROM users u WHERE u.id = :id
""")


async def viewer_facts(user_id: int) -> ViewerFacts | None:
    return cast(ViewerFacts | None, await VIEWER_FACTS.row(id=user_id))


# API tokens -------------------------------------------------------------------------------------

# Every column but the secret's hash.
_PUBLIC_TOKEN = 'id, "user", name, prefix, scopes, created_at, last_used_at, revoked_at'

# Only a live token of this user is revoked; anyone else's is not touched (and reported as not found).
REVOKE_TOKEN = Query("""
    UPDATE api_tokens SET revoked_at = now() WHERE id = :id AND "user" = :user AND revoked_at IS NULL
    RETURNING id, name, prefix, scopes, created_at, last_used_at, revoked_at
""")
INSERT_API_TOKEN = Query(f"""
    INSERT INTO api_tokens ("user", name, prefix, token_hash, scopes, created_at)
    VALUES (:user, :name, :prefix, :token_hash, :scopes::varchar[], clock_timestamp())
    RETURNING {_PUBLIC_TOKEN}
""")
LIVE_API_TOKENS = Query(f'SELECT {_PUBLIC_TOKEN} FROM api_tokens WHERE "user" = :user AND revoked_at IS NULL')
LIVE_API_TOKENS_BY_ID = Query(f"SELECT {_PUBLIC_TOKEN} FROM api_tokens WHERE id = ANY(:ids::int[]) AND revoked_at IS NULL")
LIVE_API_TOKEN_BY_PREFIX = Query("SELECT * FROM api_tokens WHERE prefix = :prefix AND revoked_at IS NULL LIMIT 1")
MARK_API_TOKEN_USED = Query("UPDATE api_tokens SET last_used_at = :at WHERE id = :id")


async def insert_api_token(user_id: int, name: str, prefix: str, token_hash: str, scopes: list[str]) -> ApiTokenRow:
    row = await INSERT_API_TOKEN.row(user=user_id, name=name, prefix=prefix, token_hash=token_hash, scopes=list(scopes))
    return cast(ApiTokenRow, row)


async def live_api_tokens(user_id: int) -> list[ApiTokenRow]:
    return cast(list[ApiTokenRow], await LIVE_API_TOKENS.rows(user=user_id))


async def live_api_tokens_by_id(ids: Sequence[int]) -> list[ApiTokenRow]:
    return cast(list[ApiTokenRow], await LIVE_API_TOKENS_BY_ID.rows(ids=list(ids)))


async def revoke_api_token(user_id: int, token_id: int) -> ApiTokenRow | None:
    return cast(ApiTokenRow | None, await REVOKE_TOKEN.row(id=token_id, user=user_id))


async def live_api_token_by_prefix(prefix: str) -> LiveApiToken | None:
    return cast(LiveApiToken | None, await LIVE_API_TOKEN_BY_PREFIX.row(prefix=prefix))


async def mark_api_token_used(token_id: int, at: datetime) -> None:
    await MARK_API_TOKEN_USED.execute(id=token_id, at=at)


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
