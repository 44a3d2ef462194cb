"""A model's status: reading the model, recording each status change in its log and announcing it."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from pathlib import Path
from typing import cast

from server.core import db
from server.core.errors import not_found
from server.core.i18n import tr
from server.core.jsonutil import from_json
from server.core.services import Services
from server.core.settings import Settings
from server.domain_events import dispatcher as domain_events
from server.evaluation import queries
from server.evaluation.domain_events import ModelStatusChanged
from server.evaluation.models.log_text import scrub
from server.evaluation.records import ModelRow, ModelStatus


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


async def record_status(services: Services, model_id: int, status: ModelStatus, message: str, triton_name: str = "") -> ModelRow:
    """Append to the status log and set the status in one statement (safe under concurrent jobs), recorded as a
    ModelStatusChanged domain event and announced after commit (the owner's inbox, webhooks, live views listen); {}
    when the model is gone, or when ``triton_name`` (the model a job started with) no longer names the row: a job
    never writes another model's status (ids restart when tests empty the tables). The owner reads the message (log
    and notification): internal names and server paths are scrubbed from it first."""
    message = scrub(message, triton_name)
    async with db.transaction():
        row = await queries.record_status(model_id, status, [log_entry(status, message[:4000])], triton_name)
        changed = await domain_events.record(status_changed(row, message)) if row is not None else None
    await domain_events.announce(services, changed)
    return row if row is not None else cast(ModelRow, {})


def status_changed(model: ModelRow, message: str) -> ModelStatusChanged:
    log = from_json(model.get("status_log")) or []
    return ModelStatusChanged(
        model_id=model["id"],
        owner_id=model["owner"],
        task_id=model["task"],
        name=model["name"],
        triton_name=model["triton_name"],
        status=str(model["status"]),
        previous_status=log[-2].get("status") if len(log) >= 2 else None,
        message=message,
    )


async def requeue_not_ranked(services: Services, task_id: int | None, message: str) -> list[ModelRow]:
    """Not ranked models (of one task, or of all) back to `deployed`, each change announced; the rows."""
    async with db.transaction():
        models = await queries.requeue_not_ranked(task_id, [log_entry(ModelStatus.DEPLOYED, message)])
        changed = [await domain_events.record(status_changed(model, message)) for model in models]
    await domain_events.announce(services, *changed)
    return models
