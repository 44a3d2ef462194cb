"""Which submissions stay loaded in the sandboxed submissions Triton.

Every submission shares the sandbox's one memory limit (SANDBOX_MEMORY_GB), and a loaded one keeps its
stub processes for as long as it stays loaded (a MiniLM-sized model takes ~0.5 GB per instance). So at
most SUBMISSIONS_MAX_LOADED stay loaded: before another load, the least recently active idle ones are
unloaded — never a target of an open round, nor one being deployed or evaluated; models Triton holds
that no row names (left from an earlier database) go first. An unloaded submission is loaded again when
it is needed: its evaluation on a new scoring dataset (the evaluation job deploys a model Triton lost),
a round that takes it as a target (server/tasks/targets.py), and the cron that keeps every open round's
submissions loaded (after a restart of the sandbox, for instance).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Collection, Mapping
from datetime import datetime
from typing import Any

from tritonclient.utils import InferenceServerException

from server.core.services import Services
from server.evaluation import queries
from server.evaluation.archive import ArchiveLimits, ArchiveRejected, read_model_repository
from server.evaluation.models.sandbox_agent import loaded_models, output_note, stop_stuck_model, stopped_models, unload_quietly
from server.evaluation.models.status import archive_path, record_status
from server.evaluation.records import ModelRow, ModelStatus, ResidentModelRow

log = logging.getLogger("dynabench.evaluation")

# Between upload and the end of its evaluation a model is in use even when no request is running.
BUSY_STATUSES = frozenset({ModelStatus.UPLOADED, ModelStatus.DEPLOYING, ModelStatus.DEPLOYED, ModelStatus.EVALUATING})


def choose_evictions(loaded: Collection[str], rows: Mapping[str, ResidentModelRow], keep: str, max_loaded: int) -> list[str]:
    """The loaded models to unload so that one more fits under ``max_loaded`` (0: no limit): first those no
    row names, then idle ones by oldest activity. Fewer (even none) when the rest are all in use."""
    if max_loaded <= 0 or len(loaded) < max_loaded:
        return []
    excess = len(loaded) - max_loaded + 1
    orphans = sorted(name for name in loaded if name not in rows and name != keep)
    idle = sorted(
        (row for name, row in rows.items() if name in loaded and name != keep and _idle(row)),
        key=lambda row: (row["changed_at"] or datetime.min, row["id"]),
    )
    return [*orphans, *(row["triton_name"] for row in idle)][:excess]


def _idle(row: ResidentModelRow) -> bool:
    return not row["in_the_loop"] and row["status"] not in BUSY_STATUSES


async def make_room(services: Services, keep: str) -> list[str]:
    """Unload what ``choose_evictions`` picks before ``keep`` is loaded; the names unloaded. Nothing when
    the sandbox agent cannot say what is loaded (then the memory limit alone decides)."""
    limit = services.settings.submissions_max_loaded
    if limit <= 0:
        return []
    loaded = await loaded_models(services)
    if loaded is None:
        log.warning("the sandbox agent did not list the loaded submissions: none unloaded before loading %s", keep)
        return []
    loaded.pop(keep, None)
    if len(loaded) < limit:
        return []
    rows = {row["triton_name"]: row for row in await queries.resident_models(list(loaded))}
    evicted = choose_evictions(list(loaded), rows, keep, limit)
    for name in evicted:
        log.info("unloading the idle submission %s to make room for %s (SUBMISSIONS_MAX_LOADED=%d)", name, keep, limit)
        await unload_quietly(services.triton_submissions, name)
    return evicted


async def load_submission(services: Services, model: ModelRow) -> tuple[str | None, dict[str, Any]]:
    """Load the model's stored archive into the submissions Triton, making room first: (why it failed or
    None, the config Triton was given)."""
    try:
        repository = await asyncio.to_thread(
            read_model_repository,
            archive_path(services.settings, model["id"]),
            ArchiveLimits(max_files=services.settings.upload_max_files, max_total_bytes=services.settings.upload_max_bytes),
        )
    except (ArchiveRejected, OSError) as exc:
        return f"The stored archive could not be read: {exc}", {}
    triton_config = {**repository.config, "name": model["triton_name"]}
    await make_room(services, keep=model["triton_name"])
    client = services.triton_submissions
    try:
        await asyncio.wait_for(
            client.load_model(model["triton_name"], config=json.dumps(triton_config), files=repository.triton_files()),
            timeout=services.settings.model_load_timeout_s,
        )
    except InferenceServerException as exc:
        return f"Triton refused to load the model: {exc.message()}", triton_config
    except TimeoutError:
        await stop_stuck_model(services, model["triton_name"])
        timeout = services.settings.model_load_timeout_s
        return (
            f"Triton did not load the model within {timeout:g} s, the time limit of a load; its processes were stopped.",
            triton_config,
        )
    except OSError as exc:
        return f"Triton did not load the model: {type(exc).__name__} {exc}", triton_config
    return None, triton_config


async def ensure_loaded(services: Services, model: ModelRow) -> str | None:
    """Load an evaluated submission again when Triton no longer holds it (unloaded to make room, or the
    sandbox restarted), with no change of status: why it could not be, or None."""
    if await model_ready(services.triton_submissions, model["triton_name"]):
        return None
    problem, _ = await load_submission(services, model)
    return problem


async def fail_stopped_models(services: Services) -> list[str]:
    """Mark failed, with the agent's reason and the end of their output, the models the sandbox agent stopped by
    itself (a crash, broken shared memory, the memory limit): they are never loaded again automatically. Models a
    deploy or an evaluation is busy with are left to that job, which reads the same reason. The names marked."""
    stopped = await stopped_models(services)
    marked = []
    for row in await queries.resident_models(list(stopped)) if stopped else []:
        if row["status"] in (ModelStatus.FAILED, ModelStatus.DEPLOYING, ModelStatus.EVALUATING):
            continue
        name = row["triton_name"]
        message = f"Stopped in the sandbox: {stopped[name]}." + await output_note(services, name)
        await record_status(services, row["id"], ModelStatus.FAILED, message, name)
        marked.append(name)
    return marked


async def keep_round_targets_loaded(services: Services) -> int:
    """Mark failed the models the sandbox stopped, then load every other submission that judges an open round and
    is not loaded; the number that could not be."""
    await fail_stopped_models(services)
    failed = 0
    for model_id in await queries.open_round_submissions():
        model = await queries.model(model_id)
        if model is None or model["status"] == ModelStatus.FAILED:
            continue
        problem = await ensure_loaded(services, model)
        if problem:
            failed += 1
            log.warning("round target %s could not be loaded again: %s", model["triton_name"], problem)
    return failed


async def model_ready(client, name: str) -> bool:
    try:
        return bool(await client.is_model_ready(name))
    except Exception:  # noqa: BLE001 — unreachable Triton: not ready
        return False
