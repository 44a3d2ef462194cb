"""Researchers' models: upload checks and publishing (upload limits: server/core/rate_limits.py); an accepted upload is
queued for deployment."""

from __future__ import annotations

import asyncio
import re
import shutil
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, BinaryIO

from server.accounts.viewer import Viewer
from server.core import jobs
from server.core.disk import disk_full, is_disk_full
from server.core.errors import FieldProblem, ServiceError, invalid
from server.core.i18n import tr
from server.core.jsonutil import from_json
from server.core.services import Services
from server.core.settings import Settings
from server.core.storable import check_upload, text_problem
from server.evaluation import jobs as evaluation_jobs
from server.evaluation import queries
from server.evaluation.archive import (
    ArchiveLimits,
    ArchiveRejected,
    ConfigLimits,
    check_config_limits,
    check_contract,
    read_model_repository,
)
from server.evaluation.archive.messages import FIXES, researcher_message
from server.evaluation.models.status import archive_path, get_model, log_entry, triton_name
from server.evaluation.records import ModelRow, ModelStatus
from server.tasks.config import TaskConfig
from server.tasks.service import load_config
from server.tasks.visibility import visible_task_by_code

__all__ = [
    "CARD_FIELDS",
    "check_archive",
    "get_model",
    "insert_retrained_model",
    "models_of_owner",
    "queue_retrained_deployment",
    "remove_archive",
    "set_published",
    "store_retrained_archive",
    "upload_model",
]

CARD_FIELDS = ("description", "parameters", "languages", "license", "source_url", "paper")
NAME = re.compile(r"^[\w .:()+-]{1,100}$")
MY_MODELS_MAX = 200


def _check_card(card: dict[str, Any]) -> dict[str, Any]:
    clean: dict[str, Any] = {}
    for key in CARD_FIELDS:
        value = card.get(key)
        if value is None:
            continue
        if not isinstance(value, str) or len(value) > 5000 or text_problem(value):
            raise invalid(
                tr("The model card is not valid."), FieldProblem(f"card.{key}", tr("must be text of at most 5,000 characters"))
            )
        clean[key] = value.strip()
    return clean


async def upload_model(
    services: Services,
    owner: Viewer,
    task_code: str,
    name: str,
    card: dict[str, Any],
    anonymous: bool,
    upload: BinaryIO,
) -> ModelRow:
    """Check the archive completely before anything is stored; a refused upload leaves no row and no file.
    An accepted one is queued for deployment. The task is read as the owner may see it: another user's hidden or
    proposed task answers as a missing one."""
    owner_id = owner.user_id
    settings = services.settings
    if settings.uploads_disabled_reason:  # never run strangers' code outside the sandbox
        raise ServiceError(
            "SERVICE_UNAVAILABLE",
            tr(
                "Model uploads are switched off: the sandbox that runs uploaded models is not available on this server. "
                "Ask the operator (the reason is in the output of `dynabench up`)."
            ),
        )
    task = await visible_task_by_code(owner, task_code)
    config = load_config(task)
    name = name.strip()
    if not NAME.match(name):
        raise invalid(tr("Bad model name."), FieldProblem("name", tr("1–100 letters, digits, spaces or . : ( ) + -")))
    clean_card = _check_card(card)
    check_upload(upload, "archive")
    store = Path(settings.model_store_dir)
    store.mkdir(parents=True, exist_ok=True)  # noqa: ASYNC240 — one local mkdir per upload, usually a no-op
    staging = store / f".upload-{owner_id}-{datetime.now(UTC).timestamp():.6f}"
    try:
        try:
            await asyncio.to_thread(_copy_capped, upload, staging, settings.upload_max_bytes)
        except OSError as exc:
            if is_disk_full(exc):
                raise disk_full(tr("your archive")) from None
            raise
        await asyncio.to_thread(check_archive, staging, settings, config)
        model = await queries.insert_model(
            task["id"],
            owner_id,
            name,
            clean_card,
            anonymous,
            ModelStatus.UPLOADED,
            [log_entry(ModelStatus.UPLOADED, "The archive passed every check.")],
        )
        staging.rename(archive_path(settings, model["id"]))
        name = triton_name(model["id"])
        await queries.set_triton_name(model["id"], name, "1")
        model["triton_name"], model["triton_version"] = name, "1"
    finally:
        staging.unlink(missing_ok=True)
    await jobs.enqueue(services.arq, evaluation_jobs.deploy_model, model["id"])
    return model


def _copy_capped(upload: BinaryIO, destination: Path, limit: int) -> None:
    written = 0
    with destination.open("wb") as out:
        while chunk := upload.read(1024 * 1024):
            written += len(chunk)
            if written > limit:
                message = tr(
                    "The archive is larger than the limit of {limit:,} bytes. {fix}", limit=limit, fix=FIXES["TOO_LARGE"]
                )
                raise ServiceError("ARCHIVE_REJECTED", message, details={"reason": "TOO_LARGE", "entry": None})
            out.write(chunk)


def check_archive(path: Path, settings: Settings, config: TaskConfig) -> None:
    """Every check an upload passes (layout, config limits, the task's contract); ARCHIVE_REJECTED with the reason."""
    limits = ArchiveLimits(max_files=settings.upload_max_files, max_total_bytes=settings.upload_max_bytes)
    try:
        repository = read_model_repository(path, limits)
        check_config_limits(
            repository,
            ConfigLimits(
                max_instances=settings.model_max_instances,
                allow_gpu=settings.model_allow_gpu,
                max_batch_size=settings.model_max_batch_size,
            ),
        )
        check_contract(repository, config.kind, config.model_inputs, config.labels)
    except ArchiveRejected as exc:
        details = {"reason": exc.code, "entry": exc.entry}
        raise ServiceError("ARCHIVE_REJECTED", researcher_message(exc), details=details) from None


async def insert_retrained_model(parent: ModelRow, name: str) -> ModelRow:
    """A version of `parent` a retraining run built (server/training/submissions.py), in the caller's transaction: a new
    model of the same owner, task, card and anonymity, `retrained_from` the parent, unpublished until the run's gate
    (or an owner's override) offers it. Its archive follows with `store_retrained_archive`."""
    model = await queries.insert_model(
        parent["task"],
        parent["owner"],
        name,
        from_json(parent["card"]),
        parent["anonymous"],
        ModelStatus.UPLOADED,
        [log_entry(ModelStatus.UPLOADED, f"Retrained from model {parent['id']}; its output passed every upload check.")],
        retrained_from=parent["id"],
    )
    model["triton_name"], model["triton_version"] = triton_name(model["id"]), "1"
    await queries.set_triton_name(model["id"], model["triton_name"], "1")
    return model


def store_retrained_archive(settings: Settings, model: ModelRow, checked_archive: Path) -> None:
    """Move the archive that passed `check_archive` into the model store. Called inside the transaction that inserts
    the model, before it commits: a committed row always has its archive (one whose row rolled back is swept)."""
    checked_archive.rename(archive_path(settings, model["id"]))


async def queue_retrained_deployment(services: Services, model: ModelRow) -> None:
    """Queue the stored archive's deployment, as an upload's: once, however often a resumed run asks (the job's id names
    the row's creation too: an id a restored or reset database hands out again is another model)."""
    job_id = f"deploy-retrained-{model['id']}-{model['created_at'].timestamp():.6f}"
    await jobs.enqueue_once(services.arq, job_id, 0, evaluation_jobs.deploy_model, model["id"])


async def set_published(model_id: int, published: bool) -> ModelRow:
    """Whoever may publish it was decided by the caller (permissions.publish_model)."""
    await queries.set_published(model_id, published)
    return await get_model(model_id)


async def models_of_owner(owner: Viewer, task_code: str | None = None) -> list[ModelRow]:
    """The owner's uploaded models, newest first (at most MY_MODELS_MAX); a task the owner may not see (any more)
    answers as a missing one."""
    owner_id = owner.user_id
    task_id = (await visible_task_by_code(owner, task_code))["id"] if task_code else None
    return await queries.models_of_owner(owner_id, task_id, MY_MODELS_MAX)


def remove_archive(settings: Settings, model_id: int) -> None:
    path = archive_path(settings, model_id)
    if path.is_dir():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)
