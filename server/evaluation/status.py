"""A model's status: reading the model, recording each status change in its log and announcing it live."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from pathlib import Path
from typing import cast

from server.core import db, events
from server.core.errors import not_found
from server.core.i18n import tr
from server.core.services import Services
from server.core.settings import Settings
from server.evaluation import queries
from server.evaluation.log_text import scrub
from server.evaluation.records import ModelRow, ModelStatus
from server.notifications import producers as notifications
from server.notifications import service as notification_service
from server.webhooks import dispatch as webhooks


def archive_path(settings: Settings, model_id: int) -> Path:
    return Path(settings.model_store_dir) / f"model-{model_id}.archive"


def triton_name(model_id: int) -> str:
    """The model's name in the submissions Triton: its id and a random tag, so a name is never reused (ids can
    be, after a database is reset, and Triton keeps a model already loaded under a name it is asked to load)."""
    return f"submission_{model_id}_{secrets.token_hex(4)}"


def log_entry(status: ModelStatus, message: str) -> dict[str, str]:
    return {"at": datetime.now(UTC).isoformat(), "status": str(status), "message": message}


async def get_model(model_id: int) -> ModelRow:
    row = await queries.model(model_id)
    if row is None:
        raise not_found(tr("That model"))
    return row


async def record_status(model_id: int, status: ModelStatus, message: str, triton_name: str = "") -> ModelRow:
    """Append to the status log and set the status in one statement (safe under concurrent jobs); {} when the
    model is gone, or when ``triton_name`` (the model a job started with) no longer names the row: a job never
    writes another model's status (ids restart when tests empty the tables). The owner reads the message (log and
    notification): internal names and server paths are scrubbed from it first."""
    message = scrub(message, triton_name)
    if not notifications.model_notifies(status):
        row = await queries.record_status(model_id, status, [log_entry(status, message[:4000])], triton_name)
        return row if row is not None else cast(ModelRow, {})
    async with db.transaction():  # the owner's notification commits with the status (announced by publish_model_event)
        row = await queries.record_status(model_id, status, [log_entry(status, message[:4000])], triton_name)
        if row is not None:
            await notifications.model_status(row, message)
    return row if row is not None else cast(ModelRow, {})


async def publish_model_event(services: Services, model: ModelRow) -> None:
    if not model:  # gone (record_status's {}): nothing to announce
        return
    await events.publish(services.redis, events.ModelChanged(model_id=model["id"], status=model.get("status")))
    await webhooks.emit(services, webhooks.model_changed(model))  # deployed, scored or failed only
    if notifications.model_notifies(str(model.get("status"))):
        await notification_service.announce_user(services, model["owner"])
