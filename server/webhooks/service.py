"""Task owners' webhooks: registering, changing, listing and deleting hooks, and reading their delivery logs."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from server.core import db
from server.core.errors import FieldProblem, conflict, invalid, not_found
from server.core.i18n import tr
from server.core.services import Services
from server.core.storable import text_problem
from server.webhooks import queries, sender
from server.webhooks.addresses import UrlRefused
from server.webhooks.delivery import secret_key
from server.webhooks.dispatch import hooks_changed
from server.webhooks.records import WebhookEventType, WebhookRow
from server.webhooks.signing import derive_secret, new_salt

DESCRIPTION_MAX = 200
MAX_ROTATION_GRACE_H = 7 * 24
DISABLED_BY_OWNER = "Disabled by an owner of the task."


@dataclass(frozen=True)
class CreatedWebhook:
    webhook: WebhookRow
    secret: str  # shown once, at creation (and at each rotation)


async def check_url(services: Services, url: str) -> str:
    url = url.strip() if isinstance(url, str) else url
    try:
        await sender.checked_target(url, services.settings.webhooks_allow_private)
    except UrlRefused as refused:
        raise invalid(refused.message, FieldProblem("url", refused.message)) from None
    return url


def check_events(events: Sequence[str]) -> list[str]:
    chosen = sorted({str(WebhookEventType(e)) for e in events})
    if not chosen:
        raise invalid(tr("Choose at least one event."), FieldProblem("events", tr("choose at least one event")))
    return chosen


def check_description(description: str) -> str:
    description = description.strip()
    problem = text_problem(description) if description else None
    if problem or len(description) > DESCRIPTION_MAX:
        message = problem or tr("at most {max} characters", max=DESCRIPTION_MAX)
        raise invalid(tr("The description is not valid."), FieldProblem("description", message))
    return description


async def create_webhook(
    services: Services, task_id: int, user_id: int, url: str, events: Sequence[str], description: str = ""
) -> CreatedWebhook:
    values = {"task": task_id, "url": await check_url(services, url), "events": check_events(events),
              "description": check_description(description), "secret_salt": new_salt(), "created_by": user_id}  # fmt: skip
    limit = services.settings.webhooks_per_task
    async with db.transaction():
        if await queries.count_webhooks_locked(task_id) >= limit:
            raise conflict(tr("A task can have at most {limit} webhooks: delete one first.", limit=limit))
        row = await queries.insert_webhook(values)
    await hooks_changed(services.redis)
    return CreatedWebhook(row, derive_secret(secret_key(services.settings), row["secret_salt"]))


async def update_webhook(services: Services, webhook_id: int, changes: dict[str, Any]) -> WebhookRow:
    """Only the fields given change; `enabled: true` re-enables a disabled hook and starts its failure count afresh."""
    checked: dict[str, Any] = {}
    if "url" in changes:  # resolved before the row is locked: a slow DNS answer holds no lock
        checked["url"] = await check_url(services, changes["url"])
    if "events" in changes:
        checked["events"] = check_events(changes["events"])
    if "description" in changes:
        checked["description"] = check_description(changes["description"])
    if "enabled" in changes:
        checked["enabled"] = bool(changes["enabled"])
    async with db.transaction():
        row = await queries.lock_webhook(webhook_id)
        if row is None:
            raise not_found(tr("That webhook"))
        values = {key: checked.get(key, row[key]) for key in ("url", "events", "description", "enabled")}
        updated = await queries.update_webhook(webhook_id, values, DISABLED_BY_OWNER)
    await hooks_changed(services.redis)
    return updated


async def rotate_secret(services: Services, webhook_id: int, keep_previous_hours: int) -> CreatedWebhook:
    """A new signing secret (shown once); the previous one signs too for `keep_previous_hours` (0: stops at once)."""
    if not 0 <= keep_previous_hours <= MAX_ROTATION_GRACE_H:
        message = tr("from 0 to {max} hours", max=MAX_ROTATION_GRACE_H)
        raise invalid(tr("The grace period is not valid."), FieldProblem("keepPreviousHours", message))
    keep_until = datetime.now(UTC) + timedelta(hours=keep_previous_hours) if keep_previous_hours else None
    row = await queries.rotate_secret(webhook_id, new_salt(), keep_until)
    if row is None:
        raise not_found(tr("That webhook"))
    return CreatedWebhook(row, derive_secret(secret_key(services.settings), row["secret_salt"]))


async def delete_webhook(services: Services, webhook_id: int) -> None:
    """Its deliveries and their log go with it; attempts still queued find nothing to send."""
    if not await queries.delete_webhook(webhook_id):
        raise not_found(tr("That webhook"))
    await hooks_changed(services.redis)


async def get_webhook(webhook_id: int) -> WebhookRow:
    row = await queries.webhook_by_id(webhook_id)
    if row is None:
        raise not_found(tr("That webhook"))
    return row


async def webhooks_of_task(task_id: int) -> list[WebhookRow]:
    return await queries.webhooks_of_task(task_id)


async def deliveries_page(webhook_id: int, after: int | None, limit: int) -> list[dict[str, Any]]:
    """Newest first."""
    return await queries.deliveries_page(webhook_id, after, limit)
