"""The inbox: writing a notification (from a listener of the domain event that announces its fact,
server/notifications/listeners.py), announcing it, reading and marking a user's notifications, and their email
preferences."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from server.core import events, jobs
from server.core.services import Services
from server.notifications import jobs as notification_jobs
from server.notifications import queries
from server.notifications.records import EmailState, NotificationKind, NotificationRow

LIVE_BATCH = 50  # the most a live subscription reads per wake-up


async def notify(recipient: int, kind: NotificationKind, subject: str, data: Mapping[str, Any]) -> NotificationRow | None:
    """Write one notification. None when (recipient, kind, subject) was notified before (a retried listener, a
    re-delivered event, a re-run): nothing is written, so a fact is notified once however often it is announced."""
    return await queries.insert(recipient, str(kind), subject, dict(data))


async def announce(services: Services, created: Iterable[NotificationRow | None]) -> None:
    """Once written: tell the recipients' open sockets, and queue the email copies that are due."""
    rows = [row for row in created if row]
    if not rows:
        return
    await events.publish(
        services.redis, *(events.NotificationReceived(user_id=r["recipient"], notification_id=r["id"]) for r in rows)
    )
    if any(r["email_state"] == EmailState.QUEUED for r in rows):
        await jobs.enqueue(services.arq, notification_jobs.send_notification_emails)


async def inbox(recipient: int, after: int | None, unread_only: bool, limit: int) -> list[NotificationRow]:
    return await queries.inbox(recipient, after, unread_only, limit)


async def unread_count(recipient: int) -> int:
    return await queries.unread_count(recipient)


async def latest_id(recipient: int) -> int:
    return await queries.latest_id(recipient)


async def not_shown(recipient: int, after: int, ids: Sequence[int]) -> list[NotificationRow]:
    return await queries.newer(recipient, after, ids, LIVE_BATCH)


async def by_ids(ids: Sequence[int]) -> list[NotificationRow]:
    return await queries.by_ids(ids)


async def mark_read(recipient: int, ids: Sequence[int] | None) -> tuple[list[int], int]:
    """Marks the recipient's own notifications (others' ids are ignored); None = all. (newly read ids, unread left)"""
    marked = await queries.mark_read(recipient, ids)
    return marked, await queries.unread_count(recipient)


async def email_preferences(user_id: int) -> list[NotificationKind]:
    known = set(NotificationKind)
    return [NotificationKind(k) for k in await queries.preferences(user_id) if k in known]


async def set_email_preferences(user_id: int, kinds: Iterable[NotificationKind]) -> list[NotificationKind]:
    chosen = sorted({str(k) for k in kinds})
    return [NotificationKind(k) for k in await queries.set_preferences(user_id, chosen)]
