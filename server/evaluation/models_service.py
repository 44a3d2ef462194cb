"""Researchers' models: upload checks, the status log, publishing, per-user limits."""

from __future__ import annotations

import asyncio
import json
import re
import shutil
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, BinaryIO

from server.core.errors import FieldProblem, ServiceError, invalid, not_found
from server.evaluation.archive import ArchiveLimits, ArchiveRejected, check_contract, read_model_repository
from server.evaluation.tables import Model
from server.core.settings import Settings
from server.core.storable import check_upload, text_problem
from server.tasks.config import TaskConfig
from server.tasks.service import get_task_by_code, load_config

CARD_FIELDS = ("description", "parameters", "languages", "license", "source_url", "paper")
NAME = re.compile(r"^[\w .:()+-]{1,100}$")


def archive_path(settings: Settings, model_id: int) -> Path:
    return Path(settings.model_store_dir) / f"model-{model_id}.archive"


def triton_name(model_id: int) -> str:
    return f"submission_{model_id}"


def _log_entry(status: str, message: str) -> dict[str, str]:
    return {"at": datetime.now(timezone.utc).isoformat(), "status": status, "message": message}


def _check_card(card: dict[str, Any]) -> dict[str, Any]:
    clean: dict[str, Any] = {}
    for key in CARD_FIELDS:
        value = card.get(key)
        if value is None:
            continue
        if not isinstance(value, str) or len(value) > 5000 or text_problem(value):
            raise invalid("The model card is not valid.", FieldProblem(f"card.{key}", "must be text of at most 5,000 characters"))
        clean[key] = value.strip()
    return clean


async def upload_model(
    settings: Settings, owner_id: int, task_code: str, name: str, card: dict[str, Any], anonymous: bool, upload: BinaryIO,
) -> dict:
    """Check the archive completely before anything is stored; a refused upload leaves no row and no file."""
    task = await get_task_by_code(task_code)
    config = load_config(task)
    name = name.strip()
    if not NAME.match(name):
        raise invalid("Bad model name.", FieldProblem("name", "1–100 letters, digits, spaces or . : ( ) + -"))
    clean_card = _check_card(card)
    check_upload(upload, "archive")
    await _check_daily_limit(settings, owner_id, task["id"])
    store = Path(settings.model_store_dir)
    store.mkdir(parents=True, exist_ok=True)
    staging = store / f".upload-{owner_id}-{datetime.now(timezone.utc).timestamp():.6f}"
    try:
        await asyncio.to_thread(_copy_capped, upload, staging, settings.upload_max_bytes)
        await asyncio.to_thread(_check_archive, staging, settings, config)
        rows = await Model.insert(Model(
            task=task["id"], owner=owner_id, name=name, card=clean_card, anonymous=anonymous, status="uploaded",
            status_log=[_log_entry("uploaded", "The archive passed every check.")],
        )).returning(*Model.all_columns())
        model = rows[0]
        staging.rename(archive_path(settings, model["id"]))
        await Model.update({Model.triton_name: triton_name(model["id"]), Model.triton_version: "1"}).where(Model.id == model["id"])
        model.update(triton_name=triton_name(model["id"]), triton_version="1")
        return model
    finally:
        staging.unlink(missing_ok=True)


def _copy_capped(upload: BinaryIO, destination: Path, limit: int) -> None:
    written = 0
    with destination.open("wb") as out:
        while chunk := upload.read(1024 * 1024):
            written += len(chunk)
            if written > limit:
                raise ServiceError("ARCHIVE_REJECTED", f"The archive is larger than the limit of {limit:,} bytes.")
            out.write(chunk)


def _check_archive(path: Path, settings: Settings, config: TaskConfig) -> None:
    limits = ArchiveLimits(max_files=settings.upload_max_files, max_total_bytes=settings.upload_max_bytes)
    try:
        repository = read_model_repository(path, limits)
        check_contract(repository, config.kind, config.model_inputs, config.labels)
    except ArchiveRejected as exc:
        raise ServiceError("ARCHIVE_REJECTED", f"{exc.code}: {exc.message}") from None


async def _check_daily_limit(settings: Settings, owner_id: int, task_id: int) -> None:
    # Failed deployments do not count against the limit.
    rows = await Model.raw(
        "SELECT count(*) AS n FROM models WHERE owner = {} AND task = {} AND status <> 'failed' "
        "AND created_at > now() - interval '1 day'",
        owner_id, task_id,
    )
    if rows[0]["n"] >= settings.uploads_per_day:
        raise ServiceError("RATE_LIMITED", f"At most {settings.uploads_per_day} uploads per task per day; try again tomorrow.")


async def record_status(model_id: int, status: str, message: str) -> dict:
    """Append to the status log and set the status in one statement (safe under concurrent jobs)."""
    rows = await Model.raw(
        "UPDATE models SET status = {}, status_log = status_log || {}::jsonb WHERE id = {} RETURNING *",
        status, json.dumps([_log_entry(status, message[:4000])]), model_id,
    )
    return rows[0] if rows else {}


async def get_model(model_id: int) -> dict:
    row = await Model.select().where(Model.id == model_id).first().output(load_json=True)
    if row is None:
        raise not_found("That model")
    return row


async def set_published(model_id: int, owner_id: int, is_admin: bool, published: bool) -> dict:
    model = await get_model(model_id)
    if model["owner"] != owner_id and not is_admin:
        raise ServiceError("FORBIDDEN", "Only the model's owner can publish it.")
    await Model.update({Model.published: published}).where(Model.id == model_id)
    return await get_model(model_id)


def remove_archive(settings: Settings, model_id: int) -> None:
    path = archive_path(settings, model_id)
    if path.is_dir():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)
