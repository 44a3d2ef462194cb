"""Pending examples: judged once their target model answers again, each exactly once.

A lease (`next_check_at`) and the `status = 'pending'` guard make concurrent or repeated runs of
the worker's recheck job judge each example once; failures back off exponentially (capped), and a
model that answers readiness again wakes the examples that waited for it.
"""

from __future__ import annotations

import asyncio
import json

from server.annotation import fooling
from server.annotation.example_store import model_output_document, status_after_verdict
from server.annotation.service import after_commit, ask_models, model_fields
from server.annotation.tables import Example
from server.core.inference import ModelUnavailable
from server.core.services import Services
from server.tasks.service import get_round, load_config
from server.tasks.tables import Context, Task

CLAIM_PENDING = """
UPDATE examples SET next_check_at = now() + interval '60 seconds'
WHERE id IN (
  SELECT id FROM examples
  WHERE status = 'pending' AND NOT retracted AND next_check_at <= now()
  ORDER BY next_check_at LIMIT {}
  FOR UPDATE SKIP LOCKED
)
RETURNING id, round, context, "user", input, model_name, model_version, check_attempts
"""
SETTLE_PENDING = """
UPDATE examples SET fooled = {}, status = {}, model_output = {}::jsonb, model_name = {}, model_version = {},
  pending_reason = '', next_check_at = NULL
WHERE id = {} AND status = 'pending' AND NOT retracted
RETURNING id, round, context, "user", fooled, status
"""
BACK_OFF = """
UPDATE examples SET check_attempts = check_attempts + 1, pending_reason = {},
  next_check_at = now() + make_interval(secs => least(300, 2 * power(2, least(check_attempts, 8))))
WHERE id = {} AND status = 'pending'
"""


BACKED_OFF_MODELS = """
SELECT DISTINCT model_name, model_version FROM examples
WHERE status = 'pending' AND NOT retracted AND next_check_at > now() AND check_attempts < {}
"""
WAKE_PENDING = """
UPDATE examples SET next_check_at = now()
WHERE status = 'pending' AND NOT retracted AND next_check_at > now() AND check_attempts < {}
  AND model_name = {} AND model_version = {}
RETURNING id
"""
WAKE_ATTEMPTS_MAX = 20  # past this, an example that keeps failing on a ready model waits out its backoff


async def wake_pending_of_ready_models(services: Services) -> int:
    """Examples backed off while their model was away are checked now if it answers readiness again,
    so that verdicts follow a Triton restart within seconds rather than after minutes of backoff."""
    woken = 0
    for row in await Example.raw(BACKED_OFF_MODELS, WAKE_ATTEMPTS_MAX):
        names, versions = row["model_name"].split("+"), row["model_version"].split("+")
        if all([await _model_ready(services, n, v) for n, v in zip(names, versions)]):
            updated = await Example.raw(WAKE_PENDING, WAKE_ATTEMPTS_MAX, row["model_name"], row["model_version"])
            woken += len(updated)
    return woken


async def _model_ready(services: Services, name: str, version: str) -> bool:
    try:
        return bool(await asyncio.wait_for(services.triton.is_model_ready(name, version), services.settings.triton_timeout_s))
    except Exception:  # noqa: BLE001 — down, unreachable or slow: not ready
        return False


async def recheck_pending(services: Services, limit: int = 32) -> dict[str, int]:
    """Judge pending examples whose model did not answer before. A lease (next_check_at) and the
    `status = 'pending'` guard make concurrent or repeated runs judge each example exactly once."""
    claimed = await Example.raw(CLAIM_PENDING, limit)
    results = await asyncio.gather(*(_recheck_one(services, row) for row in claimed))
    return {"claimed": len(claimed), "settled": sum(results)}


async def _recheck_one(services: Services, row: dict) -> int:
    round_row = await get_round(row["round"])
    task = await Task.select().where(Task.id == round_row["task"]).first()
    config = load_config(task)
    context = await Context.select().where(Context.id == row["context"]).first().output(load_json=True)
    stored = json.loads(row["input"]) if isinstance(row["input"], str) else row["input"]
    targets = [{"name": n, "version": v} for n, v in zip(row["model_name"].split("+"), row["model_version"].split("+"))]
    intended = stored["label"] if config.kind == "classification" else stored["answer"]
    try:
        predictions = await ask_models(services, config, targets, model_fields(config, context, stored))
    except ModelUnavailable as exc:
        await Example.raw(BACK_OFF, str(exc), row["id"])
        return 0
    fooled = fooling.fooled(config, intended, [p.output for p in predictions])
    async with Example._meta.db.transaction():
        settled = await Example.raw(
            SETTLE_PENDING, fooled, status_after_verdict(config, fooled), json.dumps(model_output_document(predictions)),
            "+".join(p.model_name for p in predictions), "+".join(p.model_version for p in predictions), row["id"],
        )
        if settled and fooled:
            await count_verdict(row["round"], row["context"], row["user"])
    if settled:
        after_commit(services, {**settled[0], "round": row["round"]})
    return len(settled)


async def count_verdict(round_id: int, context_id: int, user_id: int) -> None:
    """A pending example (already counted as collected) turned out to fool the model."""
    await Example.raw("UPDATE rounds SET total_fooled = total_fooled + 1 WHERE id = {}", round_id)
    await Example.raw("UPDATE contexts SET total_fooled = total_fooled + 1 WHERE id = {}", context_id)
    await Example.raw('UPDATE user_round_stats SET fooled = fooled + 1 WHERE "user" = {} AND round = {}', user_id, round_id)
