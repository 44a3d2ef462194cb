"""Tasks, rounds and contexts: creation and the checks that keep them consistent."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from asyncpg.exceptions import UniqueViolationError
from redis.asyncio import Redis
from tritonclient.http.aio import InferenceServerClient

from server.core import db, events
from server.core.errors import FieldProblem, conflict, invalid, not_found
from server.core.jsonutil import from_json
from server.core.storable import document_problem, text_problem
from server.core.target_models import latest_version
from server.tasks import queries
from server.tasks.config import TaskConfig, parse_task_config
from server.tasks.records import NewContext, RoundRow, TargetModelRef, TaskRow

TASK_CODE = re.compile(r"^[a-z][a-z0-9_]{1,47}$")
MODEL_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,200}$")
VERSION = re.compile(r"\A[0-9]{1,9}\Z")  # a Triton model version (examples.model_version is a varchar(32))
MAX_CONTEXTS_PER_CALL = 10_000


def load_config(task_row: Mapping[str, Any]) -> TaskConfig:
    return TaskConfig.model_validate(from_json(task_row["config"]))


async def get_task_by_code(code: str) -> TaskRow:
    if len(code) > 48 or text_problem(code):  # no task can have such a code (tasks.code is a varchar(48))
        raise not_found("That task")
    row = await queries.task_by_code(code)
    if row is None:
        raise not_found(f"Task '{code}'")
    return row


async def create_task(owner_id: int | None, code: str, name: str, description: str, config_document: Any) -> TaskRow:
    problems: list[FieldProblem] = []
    code, name = code.strip(), name.strip()
    if not TASK_CODE.match(code):
        problems.append(FieldProblem("code", "2–48 characters: lowercase letters, digits, '_', starting with a letter"))
    if not 1 <= len(name) <= 200 or text_problem(name):
        problems.append(FieldProblem("name", "must be 1–200 characters of text"))
    if len(description) > 10_000 or text_problem(description):
        problems.append(FieldProblem("description", "must be at most 10,000 characters of text"))
    if unstorable := document_problem(config_document, "config"):
        raise invalid("The task is not valid.", *problems, unstorable)
    config, config_errors = parse_task_config(config_document)
    problems.extend(FieldProblem(f"config.{e.field}", e.message) for e in config_errors)
    if problems:
        raise invalid("The task is not valid.", *problems)
    assert config is not None
    try:
        async with db.transaction():
            task = await queries.insert_task(code, name, description, config.model_dump(mode="json"))
            if owner_id is not None:
                await queries.insert_owner(task["id"], owner_id)
    except UniqueViolationError:
        raise conflict(f"A task with code '{code}' already exists.", "code") from None
    return task


async def create_round(
    task_code: str, target_models: list[dict], *, redis: Redis | None = None, triton: InferenceServerClient | None = None
) -> RoundRow:
    """The task's next round (the open one is closed), judged by exact model versions: a target without a
    version is pinned to the newest one the target Triton serves now (a later version never changes the
    round's judge). Announced (RoundCreated) after commit when given a Redis; the seed, run at migrate time,
    has none and nobody listens then."""
    task = await get_task_by_code(task_code)
    targets = await _pin_versions(_check_targets(target_models), triton)
    async with db.transaction():
        number = await queries.lock_current_round(task["id"]) + 1
        await queries.end_open_rounds(task["id"], datetime.now(UTC))
        row = await queries.insert_round(task["id"], number, targets)
        await queries.set_current_round(task["id"], number)
    if redis is not None:
        await events.publish(redis, events.RoundCreated(round_id=row["id"]))
    return row


async def close_round(round_id: int, *, redis: Redis | None = None) -> RoundRow:
    """Stop collection in a round (idempotent: closing a closed round keeps its first end time);
    announced (RoundClosed) when given a Redis."""
    await get_round(round_id)
    row = await queries.close_round(round_id)
    if redis is not None:
        await events.publish(redis, events.RoundClosed(round_id=row["id"]))
    return row


def _check_targets(target_models: list[dict]) -> list[TargetModelRef]:
    if not target_models:
        raise invalid("A round needs at least one target model.", FieldProblem("targetModels", "is empty"))
    if len(target_models) > 10:
        raise invalid("At most 10 target models.", FieldProblem("targetModels", "has more than 10 entries"))
    checked: list[TargetModelRef] = []
    for i, target in enumerate(target_models):
        name, version = str(target.get("name", "")).strip(), str(target.get("version") or "").strip()
        if not MODEL_NAME.match(name):
            raise invalid("Bad target model.", FieldProblem(f"targetModels.{i}.name", "is not a valid Triton model name"))
        if version and not VERSION.match(version):
            raise invalid("Bad target model.", FieldProblem(f"targetModels.{i}.version", "must be 1–9 digits or empty"))
        checked.append({"name": name, "version": version})
    return checked


async def _pin_versions(targets: list[TargetModelRef], triton: InferenceServerClient | None) -> list[TargetModelRef]:
    pinned: list[TargetModelRef] = []
    for i, target in enumerate(targets):
        version = target["version"] or (await latest_version(triton, target["name"]) if triton is not None else None)
        if not version:
            raise invalid(
                "Name the version of each target model.",
                FieldProblem(
                    f"targetModels.{i}.version",
                    f"the target Triton serves no model '{target['name']}' right now: name the version that judges this round",
                ),
            )
        pinned.append({"name": target["name"], "version": version})
    return pinned


async def get_round(round_id: int) -> RoundRow:
    row = await queries.round_by_id(round_id)
    if row is None:
        raise not_found("That round")
    return row


async def add_contexts(round_row: RoundRow, contexts: list[dict]) -> int:
    """Validate every context against the task's context fields, then insert them all or none."""
    task = await queries.task_by_id(round_row["task"])
    config = load_config(task)
    specs = {f.name: f for f in config.context_fields}
    if not contexts:
        raise invalid("No contexts given.", FieldProblem("contexts", "is empty"))
    if len(contexts) > MAX_CONTEXTS_PER_CALL:
        raise invalid(
            f"At most {MAX_CONTEXTS_PER_CALL} contexts per call; split the upload.",
            FieldProblem("contexts", "too many"),
        )
    problems: list[FieldProblem] = []
    rows: list[NewContext] = []
    for i, context in enumerate(contexts):
        fields, tag = context.get("fields"), context.get("tag")
        if not isinstance(fields, dict):
            problems.append(FieldProblem(f"contexts.{i}.fields", "must be an object"))
            continue
        missing = sorted(set(specs) - set(fields))
        extra = sorted(set(fields) - set(specs))
        if missing:
            problems.append(FieldProblem(f"contexts.{i}.fields", f"missing {', '.join(missing)}"))
        if extra:
            problems.append(FieldProblem(f"contexts.{i}.fields", f"unknown field(s) {', '.join(extra)}"))
        for name, value in fields.items():
            spec = specs.get(name)
            if spec is None:
                continue
            if not isinstance(value, str) or not value.strip():
                problems.append(FieldProblem(f"contexts.{i}.fields.{name}", "must be non-empty text"))
            elif len(value) > spec.max_length:
                problems.append(FieldProblem(f"contexts.{i}.fields.{name}", f"longer than {spec.max_length} characters"))
            elif problem := text_problem(value):
                problems.append(FieldProblem(f"contexts.{i}.fields.{name}", problem))
        if tag is not None and (not isinstance(tag, str) or len(tag) > 100 or text_problem(tag)):
            problems.append(FieldProblem(f"contexts.{i}.tag", "must be text of at most 100 characters"))
        rows.append({"fields": fields, "tag": tag})
        if len(problems) >= 50:
            break
    if problems:
        raise invalid("Some contexts are not valid; none were added.", *problems)
    async with db.transaction():
        await queries.insert_contexts(round_row["id"], rows)
    return len(rows)
