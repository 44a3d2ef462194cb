"""The accounts domain's query room: every statement on users and API tokens (hand-written SQL as
`Query` constants, the rest through Piccolo's query builder)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, cast

from piccolo.columns.combination import Where

from server.accounts.records import ApiTokenRow, LiveApiToken, UserRow, UserWithHash, ViewerFacts
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
    SELECT u.id, u.username, u.is_admin, array(SELECT o.task FROM task_owners o WHERE o."user" = u.id) AS owned
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
