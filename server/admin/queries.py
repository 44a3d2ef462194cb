"""The admin domain's query room: the audit log, and the admins' read-only views of users, proposals and models."""

from __future__ import annotations

from typing import cast

from server.admin.records import AdminModelRow, AdminUserRow, AuditRow
from server.core.sql import Query

# Audit log ----------------------------------------------------------------------------------------------------------

# In the action's transaction; the actor's username is copied so the row still reads well if the account goes.
INSERT_AUDIT = Query("""
    INSERT INTO admin_audit (actor, actor_username, action, target_type, target_id, target_label, reason)
    VALUES (:actor, coalesce((SELECT username FROM users WHERE id = :actor), ''), :action, :target_type, :target_id,
            left(:label, 200), left(:reason, 1000))
    RETURNING id
""")

# Newest first (a keyset page on id); filters by action and by the actor's username (any case).
AUDIT_PAGE = Query("""
    SELECT id, actor, actor_username, action, target_type, target_id, target_label, reason, created_at
      FROM admin_audit
     WHERE (:after::int IS NULL OR id < :after::int)
       AND (:action::text IS NULL OR action = :action::text)
       AND (:actor::text IS NULL OR lower(actor_username) = lower(:actor::text))
     ORDER BY id DESC LIMIT :limit
""")


async def insert_audit(actor: int, action: str, target_type: str, target_id: int, label: str, reason: str) -> int:
    row = await INSERT_AUDIT.row(
        actor=actor, action=action, target_type=target_type, target_id=target_id, label=label, reason=reason
    )
    assert row is not None
    return row["id"]


async def audit_page(after: int | None, limit: int, action: str | None, actor: str | None) -> list[AuditRow]:
    return cast(list[AuditRow], await AUDIT_PAGE.rows(after=after, limit=limit, action=action, actor=actor))


# Users --------------------------------------------------------------------------------------------------------------

# Newest first; `search` matches the username or the email (a substring, any case; LIKE's wildcards taken literally).
USERS_PAGE = Query("""
    SELECT u.id, u.username, u.email, u.email_verified_at, u.is_admin, u.disabled_at, u.disabled_reason, u.created_at,
           (SELECT max(t.last_used_at) FROM api_tokens t WHERE t."user" = u.id) AS last_seen_at
      FROM users u
     WHERE (:after::int IS NULL OR u.id < :after::int)
       AND (:search::text IS NULL OR u.username ILIKE :search::text ESCAPE '\\' OR u.email ILIKE :search::text ESCAPE '\\')
       AND (:admin::bool IS NULL OR u.is_admin = :admin::bool)
       AND (:disabled::bool IS NULL OR (u.disabled_at IS NOT NULL) = :disabled::bool)
     ORDER BY u.id DESC LIMIT :limit
""")


def _contains(text: str) -> str:
    return "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


async def users_page(
    after: int | None, limit: int, search: str | None, admin: bool | None, disabled: bool | None
) -> list[AdminUserRow]:
    rows = await USERS_PAGE.rows(
        after=after, limit=limit, search=_contains(search) if search else None, admin=admin, disabled=disabled
    )
    return cast(list[AdminUserRow], rows)


# Task proposals -----------------------------------------------------------------------------------------------------

PENDING_TASKS = Query(
    "SELECT * FROM tasks WHERE status = 'PROPOSED' AND active ORDER BY created_at, id LIMIT :limit", json=("config",)
)


async def pending_tasks(limit: int) -> list[dict]:
    """Proposed tasks, oldest first (the approvals queue)."""
    return await PENDING_TASKS.rows(limit=limit)


# Models -------------------------------------------------------------------------------------------------------------

MODELS_PAGE = Query("""
    SELECT m.id, m.name, t.code AS task_code, u.username AS owner_username, m.status, m.published, m.taken_down_at,
           m.taken_down_reason, m.created_at
      FROM models m JOIN tasks t ON t.id = m.task JOIN users u ON u.id = m.owner
     WHERE (:after::int IS NULL OR m.id < :after::int) AND (:task::int IS NULL OR m.task = :task::int)
     ORDER BY m.id DESC LIMIT :limit
""")


async def models_page(after: int | None, limit: int, task_id: int | None) -> list[AdminModelRow]:
    return cast(list[AdminModelRow], await MODELS_PAGE.rows(after=after, limit=limit, task=task_id))
