"""startAdversaryRun, cancelAdversaryRun and what owners read of runs (docs/design.md §4.1f). The resolvers check
that the viewer owns the round's task; this checks the run itself: idempotent on its client UUID, 1..MAX_COUNT
examples, a classification or generative task with a generator (its own, or one the owner names), an open round with
a target, one queued or running run per task (a partial unique index decides races), and the task's daily cap."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

from server.annotation.adversary import jobs as run_jobs
from server.annotation.adversary import queries, rules
from server.core import jobs
from server.core.errors import FieldProblem, ServiceError, invalid, rate_limited
from server.core.i18n import tr
from server.core.jsonutil import from_json
from server.core.services import Services
from server.tasks.service import round_config
from server.tasks.suggestion_generator import generator_problems

ROUND_RUNS_SHOWN = 20


async def start_run(
    services: Services,
    user_id: int,
    round_row: Mapping[str, Any],
    client_id: uuid.UUID,
    count: int,
    generator: str | None = None,
) -> tuple[dict, bool]:
    """(run with its figures, duplicate): queued, and its job enqueued. `generator`: a served generative model's name
    or "endpoint:<name>", checked live as a task config's is; None: the task's suggestions generator."""
    existing = await queries.by_client_id(client_id)
    if existing is not None:
        return await _same_request(existing, user_id, round_row), True
    if not 1 <= count <= rules.MAX_COUNT:
        raise invalid(
            tr("A run writes between 1 and {max} examples.", max=rules.MAX_COUNT),
            FieldProblem("count", tr("must be between 1 and {max}", max=rules.MAX_COUNT)),
        )
    if round_row["end_at"] is not None:
        raise ServiceError("ROUND_CLOSED", tr("This round is closed; write examples for the task's current round."))
    config = await round_config(round_row)
    if config.kind not in ("classification", "generative"):
        raise invalid(
            tr("Adversary runs write classification or generative tasks' examples."),
            FieldProblem("roundId", tr("is not a classification or generative task's round")),
        )
    try:
        config = rules.with_generator(config, generator)
    except ValueError:
        raise invalid(
            tr("That is not a generator's name."),
            FieldProblem("generator", tr("must be a served generative model's name or endpoint:<name>")),
        ) from None
    if config.suggestions.generator is None:
        raise invalid(
            tr("This task has no generator for suggestions (its config names none)."),
            FieldProblem("roundId", tr("its task names no generator")),
        )
    if generator and (problems := await generator_problems(services, config)):
        raise invalid(tr("That generator cannot be asked."), FieldProblem("generator", problems[0].message))
    if not from_json(round_row.get("target_models")):
        raise ServiceError("MODEL_UNAVAILABLE", tr("This round has no target model yet."))
    task_id = round_row["task"]
    if await queries.requested_today(task_id) + count > rules.DAILY_PER_TASK:
        raise rate_limited(
            tr("Runs may ask for at most {max} examples of a task per day (UTC).", max=rules.DAILY_PER_TASK), _to_midnight()
        )
    row = await queries.insert(
        client_id=client_id,
        round=round_row["id"],
        task=task_id,
        started_by=user_id,
        requested=count,
        generator=config.suggestions.generator.source[:200],
    )
    if row is None:
        raced = await queries.by_client_id(client_id)
        if raced is not None:
            return await _same_request(raced, user_id, round_row), True
        raise ServiceError("CONFLICT", tr("A run is already going on this task: wait for it to end, or cancel it."))
    await jobs.enqueue(services.arq, run_jobs.run_adversary, row["id"])
    return await _figures(row["id"]), False


async def cancel_run(run_id: int) -> dict:
    """Cancelled if still queued or running (its job stops before its next example); a finished run as it is."""
    await queries.finish(run_id, rules.RunStatus.CANCELLED, "")
    return await _figures(run_id)


async def run_by_id(run_id: int) -> dict | None:
    return await queries.by_id(run_id)


async def figures(run_id: int) -> dict:
    return await _figures(run_id)


async def round_runs(round_id: int) -> list[dict]:
    return await queries.of_round(round_id, ROUND_RUNS_SHOWN)


async def _same_request(row: Mapping[str, Any], user_id: int, round_row: Mapping[str, Any]) -> dict:
    if row["started_by"] != user_id or row["round"] != round_row["id"]:
        raise ServiceError("CONFLICT", tr("This client UUID is already used."))
    return await _figures(row["id"])


async def _figures(run_id: int) -> dict:
    row = await queries.with_figures(run_id)
    assert row is not None
    return row


def _to_midnight() -> int:
    now = datetime.now(UTC)
    midnight = (now + timedelta(days=1)).replace(hour=0, minute=0, second=0, microsecond=0)
    return int((midnight - now).total_seconds()) + 1
