"""Storing a judged example: one statement (queries.INSERT_EXAMPLE) inserts it once per client UUID and
moves the round, context and user counters with it."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any

from asyncpg.exceptions import ForeignKeyViolationError

from server.annotation.examples import queries
from server.annotation.examples.judging import model_output_document, status_after_verdict
from server.annotation.quality.duplicates import find_repeat, refuse, remember_vector, vector_of
from server.annotation.records import ExampleRow, ExampleStatus
from server.campaigns.quotas import Action as QuotaAction
from server.campaigns.work import check_quota, quota_applies
from server.core import db
from server.core.errors import ServiceError, not_found
from server.core.i18n import tr
from server.core.inference import Prediction
from server.core.jsonutil import to_json
from server.tasks.config import TaskConfig


async def insert_example(
    round_row: dict,
    config: TaskConfig,
    context: dict,
    user_id: int,
    submission: Any,
    stored_input: dict,
    predictions: list[Prediction],
    fooled: bool | None,
    pending_reason: str,
    targets: list[dict],
    guard: bool = False,
    campaign_quota: Awaitable[bool] | None = None,
) -> tuple[ExampleRow | None, bool]:
    """(example, inserted); DUPLICATE_EXAMPLE when it repeats an earlier example (quality/duplicates.py). Guarded:
    (None, False) when the rows it was judged on are no longer current or the client UUID is taken. `campaign_quota`:
    quota_applies for this write, already being read (else it is read here when it matters)."""
    output = model_output_document(predictions) if predictions else None
    status = status_after_verdict(config, fooled, answered=bool(predictions))
    names = [p.model_name for p in predictions] or [t["name"] for t in targets]
    versions = [p.model_version for p in predictions] or [t.get("version", "") for t in targets]
    values = {
        "client_id": submission.client_id,
        "round": round_row["id"],
        "context": context["id"],
        "user": user_id,
        "input": to_json(stored_input),
        "output": to_json(output) if output is not None else None,
        "name": "+".join(names),
        "version": "+".join(versions),
        "fooled": fooled,
        "status": status,
        "explanation": submission.explanation,
        "time_spent": submission.time_spent_ms,
        "reason": pending_reason,
        "pending": status == ExampleStatus.PENDING,
        "fooled_int": 1 if fooled else 0,
        "assisted_by": to_json(submission.assisted_by) if getattr(submission, "assisted_by", None) else None,
    }
    if guard:
        values.update(
            seen_targets=to_json(round_row["target_models"]),
            seen_config=round_row["config_text"],
            seen_fields=to_json(context["fields"]),
        )
    task_id, client_id, row = round_row["task"], submission.client_id, None
    # Most writes need nothing but the insert: then it goes alone, one statement, without BEGIN/COMMIT round trips (an
    # account that joins a campaign meanwhile is held to its quota from its next write).
    alone = (
        not config.duplicates.enabled
        and vector_of(config, predictions) is None
        and not await (campaign_quota or quota_applies(user_id, round_row["id"]))
    )
    try:
        if alone:
            repeat = None
            row = await queries.insert_example(values, guard=guard)
        else:
            # The near-duplicate check and a campaign worker's quota are checked under locks, with the insert.
            async with db.transaction():
                repeat = await find_repeat(config, task_id, round_row["id"], user_id, client_id, stored_input, predictions)
                if repeat is None:
                    await check_quota(user_id, round_row["id"], QuotaAction.EXAMPLE)
                    row = await queries.insert_example(values, guard=guard)
                    if row is not None:
                        await remember_vector(row["id"], config, predictions)
    except ForeignKeyViolationError as exc:
        # A session is checked by its signature alone; its account may be gone (e.g. a reset database).
        if "user" in (exc.constraint_name or ""):
            raise ServiceError("AUTHENTICATION_FAILED", tr("Your session has expired or is invalid; log in again.")) from None
        raise not_found(tr("That round or context")) from None
    if repeat is not None:
        await refuse(repeat, task_id, user_id, client_id)
    if row is None and guard:
        return None, False
    if row is None:  # the same client UUID won a race a moment ago
        existing = await queries.example_by_client_id(submission.client_id)
        if existing is None or existing["user"] != user_id:
            raise ServiceError("CONFLICT", tr("This client UUID belongs to another user's example."))
        return existing, False
    return row, True
