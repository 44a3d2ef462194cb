"""Tasks, rounds and contexts: creation and the checks that keep them consistent."""

from __future__ import annotations

import json
import re
from datetime import datetime, timezone
from typing import Any

from asyncpg.exceptions import UniqueViolationError

from server.accounts.tables import User
from server.core.errors import FieldProblem, ServiceError, conflict, invalid, not_found
from server.core.storable import document_problem, text_problem
from server.tasks.config import TaskConfig, parse_task_config
from server.tasks.tables import Context, Round, Task, TaskOwner

TASK_CODE = re.compile(r"^[a-z][a-z0-9_]{1,47}$")
MODEL_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,200}$")
VERSION = re.compile(r"\A[0-9]{1,9}\Z")  # a Triton model version (examples.model_version is a varchar(32))
MAX_CONTEXTS_PER_CALL = 10_000


def load_config(task_row: dict) -> TaskConfig:
    raw = task_row["config"]
    return TaskConfig.model_validate(json.loads(raw) if isinstance(raw, str) else raw)


async def get_task_by_code(code: str) -> dict:
    if len(code) > 48 or text_problem(code):  # no task can have such a code (tasks.code is a varchar(48))
        raise not_found("That task")
    row = await Task.select().where(Task.code == code).first()
    if row is None:
        raise not_found(f"Task '{code}'")
    return row


async def create_task(
    owner_id: int | None, code: str, name: str, description: str, config_document: Any
) -> dict:
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
        async with Task._meta.db.transaction():
            rows = await Task.insert(
                Task(code=code, name=name, description=description, config=config.model_dump(mode="json"))
            ).returning(*Task.all_columns())
            task = rows[0]
            if owner_id is not None:
                await TaskOwner.insert(TaskOwner(task=task["id"], user=owner_id))
    except UniqueViolationError:
        raise conflict(f"A task with code '{code}' already exists.", "code") from None
    return task


async def create_round(task_code: str, target_models: list[dict]) -> dict:
    task = await get_task_by_code(task_code)
    targets = _check_targets(target_models)
    async with Round._meta.db.transaction():
        # Lock the task row so two owners opening a round at once get consecutive numbers.
        locked = await Task.raw("SELECT current_round FROM tasks WHERE id = {} FOR UPDATE", task["id"])
        number = int(locked[0]["current_round"]) + 1
        now = datetime.now(timezone.utc)
        await Round.update({Round.end_at: now}).where(Round.task == task["id"], Round.end_at.is_null())
        rows = await Round.insert(Round(task=task["id"], number=number, target_models=targets)).returning(
            *Round.all_columns()
        )
        await Task.update({Task.current_round: number}).where(Task.id == task["id"])
    return rows[0]


async def close_round(round_id: int) -> dict:
    """Stop collection in a round (idempotent: closing a closed round keeps its first end time)."""
    await get_round(round_id)
    rows = await Round.raw(
        "UPDATE rounds SET end_at = COALESCE(end_at, now()) WHERE id = {} RETURNING *", round_id
    )
    return rows[0]


def _check_targets(target_models: list[dict]) -> list[dict]:
    if not target_models:
        raise invalid("A round needs at least one target model.", FieldProblem("targetModels", "is empty"))
    if len(target_models) > 10:
        raise invalid("At most 10 target models.", FieldProblem("targetModels", "has more than 10 entries"))
    checked = []
    for i, target in enumerate(target_models):
        name, version = str(target.get("name", "")).strip(), str(target.get("version") or "").strip()
        if not MODEL_NAME.match(name):
            raise invalid("Bad target model.", FieldProblem(f"targetModels.{i}.name", "is not a valid Triton model name"))
        if version and not VERSION.match(version):
            raise invalid("Bad target model.", FieldProblem(f"targetModels.{i}.version", "must be 1–9 digits or empty"))
        checked.append({"name": name, "version": version})
    return checked


async def get_round(round_id: int) -> dict:
    row = await Round.select().where(Round.id == round_id).first()
    if row is None:
        raise not_found("That round")
    return row


async def add_contexts(round_row: dict, contexts: list[dict]) -> int:
    """Validate every context against the task's context fields, then insert them all or none."""
    task = await Task.select().where(Task.id == round_row["task"]).first()
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
    rows = []
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
        rows.append(Context(round=round_row["id"], fields=fields, tag=tag))
        if len(problems) >= 50:
            break
    if problems:
        raise invalid("Some contexts are not valid; none were added.", *problems)
    async with Context._meta.db.transaction():
        for start in range(0, len(rows), 1000):
            await Context.insert(*rows[start : start + 1000])
    return len(rows)


async def task_owners(task_id: int) -> list[dict]:
    owner_ids = TaskOwner.select(TaskOwner.user).where(TaskOwner.task == task_id)
    return await User.select(User.id, User.username).where(User.id.is_in([r["user"] for r in await owner_ids] or [-1]))


async def add_owner(task_id: int, user_id: int) -> None:
    exists = await TaskOwner.exists().where(TaskOwner.task == task_id, TaskOwner.user == user_id)
    if not exists:
        await TaskOwner.insert(TaskOwner(task=task_id, user=user_id))


def ensure(condition: bool, code: str, message: str) -> None:
    if not condition:
        raise ServiceError(code, message)
