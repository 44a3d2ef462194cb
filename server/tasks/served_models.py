"""The target models a new task or round can choose: what the target Triton serves now (its repository index and
each model's config, summarized by the pure served_summary.py), and a task's published, evaluated submissions."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

from server.core.services import Services
from server.core.target_models import is_submission_name
from server.evaluation import reads as evaluation_reads
from server.evaluation.records import ModelRow
from server.tasks.served_summary import ServedModel, of_kind, ready_versions, summarize
from server.tasks.targets import EVALUATED_STATUSES

MAX_LISTED = 200  # a repository with more models is an operator's business; the form lists the first ones


async def _config(services: Services, name: str, version: str) -> Mapping[str, Any] | None:
    try:
        return await asyncio.wait_for(services.triton.get_model_config(name, version), services.settings.triton_timeout_s)
    except Exception:  # noqa: BLE001 — unloaded meanwhile, or Triton away: the model is listed without metadata
        return None


async def served_target_models(services: Services, kind: str | None) -> list[ServedModel]:
    """The target Triton's models (ready or not) that follow the kind's I/O contract, ready ones first; [] when the
    target Triton cannot be reached (the form says no model is served)."""
    try:
        index = await asyncio.wait_for(services.triton.get_model_repository_index(), services.settings.triton_timeout_s)
    except Exception:  # noqa: BLE001 — Triton away: nothing is served now
        return []
    versions = {n: v for n, v in ready_versions(index or ()).items() if not is_submission_name(n)}
    names = list(versions)[:MAX_LISTED]
    configs = await asyncio.gather(*(_config(services, n, versions[n][0]) for n in names if versions[n]))
    by_name = dict(zip([n for n in names if versions[n]], configs, strict=True))
    return of_kind((summarize(n, versions[n], by_name.get(n)) for n in names), kind)


async def published_submissions(task_id: int) -> list[ModelRow]:
    """The task's published submissions whose evaluation finished: the ones createRound accepts by modelId."""
    rows = await evaluation_reads.published_models(task_id)
    return [row for row in rows if row["status"] in EVALUATED_STATUSES]
