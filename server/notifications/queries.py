"""The notifications domain's query room: every statement on notifications and notification preferences."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from server.core.jsonutil import to_json
from server.core.sql import Query
from server.notifications.records import EmailState, NotificationRow

# Once per (recipient, kind, subject): a retried job or a second run of a producer inserts nothing. The email copy is
# queued when the recipient opted into the kind (sent later by server/notifications/job_functions.py, never in a request).
INSERT = Query(
    """
    INSERT INTO notifications (recipient, kind, subject, data, email_state)
    VALUES (:recipient::int, :kind::varchar, :subject::varchar, :data::jsonb,
            CASE WHEN EXISTS (SELECT 1 FROM notification_preferences p
                               WHERE p."user" = :recipient::int AND :kind::varchar = ANY(p.email_kinds))
                 THEN 'queued' ELSE 'none' END)
    ON CONFLICT (recipient, kind, subject) DO NOTHING
    RETURNING *
""",
    json=("data",),
)
# Newest first; `after` is the id of the last row of the previous page.
INBOX = Query(
    """
    SELECT * FROM notifications
     WHERE recipient = :recipient AND (:after::int IS NULL OR id < :after::int)
       AND (NOT :unread_only OR read_at IS NULL)
     ORDER BY id DESC LIMIT :limit
""",
    json=("data",),
)
UNREAD_COUNT = Query("SELECT count(*) FROM notifications WHERE recipient = :recipient AND read_at IS NULL")
LATEST_ID = Query("SELECT coalesce(max(id), 0) FROM notifications WHERE recipient = :recipient")
# What a live subscription has not shown yet: newer than the last it showed, or named by an event (an id taken before
# a newer one, committed after it).
NEWER = Query(
    """
    SELECT * FROM notifications
     WHERE recipient = :recipient AND (id > :after OR id = ANY(:ids::int[]))
     ORDER BY id LIMIT :limit
""",
    json=("data",),
)
BY_IDS = Query("SELECT * FROM notifications WHERE id = ANY(:ids::int[])", json=("data",))
MARK_READ = Query(
    """
    UPDATE notifications SET read_at = now()
     WHERE recipient = :recipient AND id = ANY(:ids::int[]) AND read_at IS NULL
    RETURNING id
"""
)
MARK_ALL_READ = Query("UPDATE notifications SET read_at = now() WHERE recipient = :recipient AND read_at IS NULL RETURNING id")
PREFERENCES = Query('SELECT email_kinds FROM notification_preferences WHERE "user" = :user')
SET_PREFERENCES = Query(
    """
    INSERT INTO notification_preferences ("user", email_kinds) VALUES (:user, :kinds::varchar[])
    ON CONFLICT ("user") DO UPDATE SET email_kinds = EXCLUDED.email_kinds
    RETURNING email_kinds
"""
)
# Email copies due: claimed with SKIP LOCKED, so two workers never send the same one. The address is the
# recipient's only while it is verified.
CLAIM_EMAILS = Query(
    """
    SELECT n.*, u.username,
           CASE WHEN u.email_verified_at IS NOT NULL THEN u.email END AS email
      FROM notifications n JOIN users u ON u.id = n.recipient
     WHERE n.email_state = 'queued'
     ORDER BY n.id
     LIMIT :limit
       FOR UPDATE OF n SKIP LOCKED
""",
    json=("data",),
)
# A user's active days on a task since a date (the badge check looks at the recent ones only: a streak earned by new
# activity is a recent one), as server/annotation/validation/queries.ACTIVE_DAYS counts them.
SET_EMAIL_STATE = Query(
    "UPDATE notifications SET email_state = :state, email_attempts = email_attempts + :attempt WHERE id = :id"
)


async def insert(recipient: int, kind: str, subject: str, data: dict[str, Any]) -> NotificationRow | None:
    """The new row, or None when this (recipient, kind, subject) was already notified."""
    row = await INSERT.row(recipient=recipient, kind=kind, subject=subject[:200], data=to_json(data))
    return cast(NotificationRow | None, row)


async def inbox(recipient: int, after: int | None, unread_only: bool, limit: int) -> list[NotificationRow]:
    return cast(list[NotificationRow], await INBOX.rows(recipient=recipient, after=after, unread_only=unread_only, limit=limit))


async def unread_count(recipient: int) -> int:
    return int(await UNREAD_COUNT.value(recipient=recipient))


async def latest_id(recipient: int) -> int:
    return int(await LATEST_ID.value(recipient=recipient))


async def newer(recipient: int, after: int, ids: Sequence[int], limit: int) -> list[NotificationRow]:
    return cast(list[NotificationRow], await NEWER.rows(recipient=recipient, after=after, ids=list(ids), limit=limit))


async def by_ids(ids: Sequence[int]) -> list[NotificationRow]:
    return cast(list[NotificationRow], await BY_IDS.rows(ids=list(ids)))


async def mark_read(recipient: int, ids: Sequence[int] | None) -> list[int]:
    """Of the recipient's own notifications only; None = all. The ids that were unread."""
    if ids is None:
        rows = await MARK_ALL_READ.rows(recipient=recipient)
    else:
        rows = await MARK_READ.rows(recipient=recipient, ids=list(ids))
    return [r["id"] for r in rows]


async def preferences(user_id: int) -> list[str]:
    row = await PREFERENCES.row(user=user_id)
    return list(row["email_kinds"]) if row else []


async def set_preferences(user_id: int, kinds: Sequence[str]) -> list[str]:
    row = await SET_PREFERENCES.row(user=user_id, kinds=list(kinds))
    assert row is not None
    return list(row["email_kinds"])


async def claim_emails(limit: int) -> list[dict[str, Any]]:
    """Call in a transaction: the rows stay locked until it ends."""
    return await CLAIM_EMAILS.rows(limit=limit)


async def set_email_state(notification_id: int, state: EmailState, attempt: bool = False) -> None:
    await SET_EMAIL_STATE.execute(id=notification_id, state=str(state), attempt=1 if attempt else 0)
