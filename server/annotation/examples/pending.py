"""Pending examples: judged once their target model answers again, each exactly once.

A lease (`next_check_at`) and the `status = 'pending'` guard make concurrent or repeated runs of
the worker's recheck job judge each example once; failures back off exponentially (capped), and a
model that answers readiness again wakes the examples that waited for it.
"""

from __future__ import annotations

import asyncio

from server.annotation import fooling
from server.annotation.conversations.judge import rejudge_transcript
from server.annotation.examples import queries
from server.annotation.examples.announce import example_judged
from server.annotation.examples.judging import ask_models, model_fields, model_output_document, status_after_verdict
from server.annotation.quality import queries as gold_queries
from server.annotation.records import ClaimedPending, ExampleStatus
from server.core import db
from server.core.inference import ModelUnavailable, Prediction
from server.core.jsonutil import from_json, to_json
from server.core.services import Services
from server.core.target_models import serving_client
from server.tasks.service import get_round, round_config

WAKE_ATTEMPTS_MAX = 20  # past this, an example that keeps failing on a ready model waits out its backoff


async def wake_pending_of_ready_models(services: Services) -> int:
    """Examples backed off while their model was away are checked now if it answers readiness again,
    so that verdicts follow a Triton restart within seconds rather than after minutes of backoff."""
    woken = 0
    for row in await queries.backed_off_models(WAKE_ATTEMPTS_MAX):
        names, versions = row["model_name"].split("+"), row["model_version"].split("+")
        if all([await _model_ready(services, n, v) for n, v in zip(names, versions)]):
            woken += await queries.wake_pending(WAKE_ATTEMPTS_MAX, row["model_name"], row["model_version"])
    return woken


async def _model_ready(services: Services, name: str, version: str) -> bool:
    try:
        client = serving_client(services, name)
        return bool(await asyncio.wait_for(client.is_model_ready(name, version), services.settings.triton_timeout_s))
    except Exception:  # noqa: BLE001 — down, unreachable or slow: not ready
        return False


async def recheck_pending(services: Services, limit: int = 32) -> dict[str, int]:
    """Judge pending examples whose model did not answer before. A lease (next_check_at) and the
    `status = 'pending'` guard make concurrent or repeated runs judge each example exactly once."""
    claimed = await queries.claim_pending(limit)
    results = await asyncio.gather(*(_recheck_one(services, row) for row in claimed))
    return {"claimed": len(claimed), "settled": sum(results)}


async def _recheck_one(services: Services, row: ClaimedPending) -> int:
    round_row = await get_round(row["round"])
    config = await round_config(round_row)
    context = await queries.context_row(row["context"])
    stored = from_json(row["input"])
    targets = [{"name": n, "version": v} for n, v in zip(row["model_name"].split("+"), row["model_version"].split("+"))]
    try:
        if config.kind == "generative":  # the transcript is kept: only its judge is asked again
            output, fooled = await rejudge_transcript(services, config, stored, row["model_output"])
            predictions = [Prediction(row["model_name"], row["model_version"], output)]
        else:
            intended = stored["label"] if config.kind == "classification" else stored["answer"]
            predictions = await ask_models(services, config, targets, model_fields(config, context, stored))
            fooled = fooling.fooled(config, intended, [p.output for p in predictions])
    except ModelUnavailable as exc:
        await queries.back_off(row["id"], str(exc))
        return 0
    # An uploaded gold row (quality/gold_upload.py) only gets its model output and verdict: it stays open for the gold
    # mix whatever the verdict, moves no counter and is announced to nobody (it is nobody's submission).
    gold = await gold_queries.gold_of_example(row["id"])
    hidden_gold = gold is not None and bool(gold["hidden"])
    async with db.transaction():
        settled = await queries.settle_pending(
            row["id"],
            fooled,
            # ask_user: now awaiting the author's claim
            ExampleStatus.OPEN if hidden_gold else status_after_verdict(config, fooled, answered=True),
            to_json(model_output_document(predictions)),
            "+".join(p.model_name for p in predictions),
            "+".join(p.model_version for p in predictions),
        )
        if settled and fooled and not hidden_gold:
            # Already counted as collected: it now counts as fooled too.
            await queries.count_fooled(row["round"], row["context"], row["user"])
    if settled and not hidden_gold:
        # Settled examples have a verdict (or await their author's claim): nothing to re-check, only live views to tell.
        example_judged(services, {**settled[0], "round": row["round"]})
    return len(settled)
