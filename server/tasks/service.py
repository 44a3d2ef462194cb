"""Tasks, rounds and contexts: creation and the checks that keep them consistent."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from asyncpg.exceptions import UniqueViolationError
from redis.asyncio import Redis

from server.core import db, events
from server.core.errors import FieldProblem, conflict, invalid, not_found
from server.core.i18n import tr
from server.core.jsonutil import from_json
from server.core.markdown import MAX_MARKDOWN
from server.core.services import Services
from server.core.storable import document_problem, text_problem
from server.tasks import queries
from server.tasks.config import TaskConfig, parse_task_config
from server.tasks.records import NewContext, RoundRow, TargetModelRef, TaskRow, TaskStatus
from server.tasks.suggestion_generator import generator_problems
from server.tasks.targets import TargetRequest, resolve_targets
from server.webhooks import dispatch as webhooks

TASK_CODE = re.compile(r"^[a-z][a-z0-9_]{1,47}$")
MAX_CONTEXTS_PER_CALL = 10_000


def load_config(task_row: Mapping[str, Any]) -> TaskConfig:
    """The task's current config (new rounds open with it); a round's own is `round_config`."""
    return TaskConfig.model_validate(from_json(task_row["config"]))


_PARSED: dict[str, TaskConfig] = {}


async def round_config(round_row: Mapping[str, Any]) -> TaskConfig:
    """The config version the round runs with: its examples are checked, judged, validated and exported with it.
    One small read (the version's text); parsing is cached by that text."""
    raw = await queries.config_version_text(round_row["task"], round_row.get("config_version") or 1)
    if raw is None:  # a task written without versions (raw SQL): its current config
        task = await queries.task_by_id(round_row["task"])
        assert task is not None  # rounds.task is a foreign key
        return load_config(task)
    config = _PARSED.get(raw)
    if config is None:
        if len(_PARSED) > 1000:
            _PARSED.clear()
        config = _PARSED[raw] = TaskConfig.model_validate_json(raw)
    return config


async def get_task(task_id: int) -> TaskRow:
    row = await queries.task_by_id(task_id)
    if row is None:
        raise not_found(tr("That task"))
    return row


def check_accepts_votes(task: TaskRow) -> None:
    """Votes are refused on an archived task (read-only, docs/design.md §12)."""
    if task["status"] == TaskStatus.ARCHIVED:
        raise conflict(tr("The task is archived (read-only): it takes no new votes."))


async def get_task_by_code(code: str) -> TaskRow:
    if len(code) > 48 or text_problem(code):  # no task can have such a code (tasks.code is a varchar(48))
        raise not_found(tr("That task"))
    row = await queries.task_by_code(code)
    if row is None:
        raise not_found(tr("Task '{code}'", code=code))
    return row


def text_problems(name: str | None, description: str | None, instructions: str | None) -> list[FieldProblem]:
    """The checks of a task's texts (None: not given)."""
    problems: list[FieldProblem] = []
    if name is not None and (not 1 <= len(name) <= 200 or text_problem(name)):
        problems.append(FieldProblem("name", tr("must be 1–200 characters of text")))
    if description is not None and (len(description) > 10_000 or text_problem(description)):
        problems.append(FieldProblem("description", tr("must be at most 10,000 characters of text")))
    if instructions is not None and (len(instructions) > MAX_MARKDOWN or text_problem(instructions)):
        problems.append(FieldProblem("instructions", tr("must be at most {limit:,} characters of markdown", limit=MAX_MARKDOWN)))
    return problems


def checked_config(config_document: Any, problems: list[FieldProblem], message: str) -> TaskConfig:
    """The config document parsed, or INVALID_INPUT with these and the config's own problems."""
    if unstorable := document_problem(config_document, "config"):
        raise invalid(message, *problems, unstorable)
    config, config_errors = parse_task_config(config_document)
    problems = [*problems, *(FieldProblem(f"config.{e.field}", e.message) for e in config_errors)]
    if problems:
        raise invalid(message, *problems)
    assert config is not None
    return config


async def create_task(
    owner_id: int | None,
    code: str,
    name: str,
    description: str,
    config_document: Any,
    *,
    proposed: bool = False,
    instructions: str = "",
    redis: Redis | None = None,
    services: Services | None = None,
) -> TaskRow:
    """A new task with its owner; a proposal (seen only by its owners and admins until approved) when `proposed`.
    With `services`, the suggestions' generator the config names is checked live (suggestion_generator.py)."""
    code, name = code.strip(), name.strip()
    problems = text_problems(name, description, instructions)
    if not TASK_CODE.match(code):
        problems.insert(0, FieldProblem("code", tr("2–48 characters: lowercase letters, digits, '_', starting with a letter")))
    config = checked_config(config_document, problems, tr("The task is not valid."))
    if generator := await generator_problems(services, config):
        raise invalid(tr("The task is not valid."), *generator)
    status = TaskStatus.PROPOSED if proposed else TaskStatus.PUBLIC
    try:
        async with db.transaction():
            task = await queries.insert_task(
                code, name, description, config.model_dump(mode="json"), status, instructions, owner_id
            )
            if owner_id is not None:
                await queries.insert_owner(task["id"], owner_id)
    except UniqueViolationError:
        raise conflict(tr("A task with code '{code}' already exists.", code=code), "code") from None
    if redis is not None:
        await events.publish(redis, events.TaskListChanged(task_id=task["id"], change="created"))
    return task


async def create_round(
    task_code: str,
    target_models: Sequence[TargetModelRef | TargetRequest],
    *,
    services: Services | None = None,
    announce: bool = True,
) -> RoundRow:
    """The task's next round (the open one is closed), judged by exact model versions: a target without a
    version is pinned to the newest one the target Triton serves now (a later version never changes the
    round's judge). With ``services`` every target is checked live first (server/tasks/targets.py) and the
    round is announced (RoundCreated) after commit unless the caller announces it itself; the seed, run at
    migrate time, passes none."""
    task = await get_task_by_code(task_code)
    if task["status"] == TaskStatus.ARCHIVED:
        raise conflict(
            tr("The task is archived: make it public or hidden again (setTaskVisibility) to open a round."), "taskCode"
        )
    targets = await resolve_targets(task, load_config(task), target_models, services)
    async with db.transaction():
        locked = await queries.lock_task(task["id"])
        assert locked is not None  # a task is never deleted
        number = locked["current_round"] + 1
        await queries.end_open_rounds(task["id"], datetime.now(UTC))
        # The round runs with the task's config as it is now, whatever later edits do (round_config).
        row = await queries.insert_round(task["id"], number, targets, locked["config_version"])
        await queries.set_current_round(task["id"], number)
    if services is not None and announce:
        await events.publish(services.redis, events.RoundCreated(round_id=row["id"]))
    if services is not None:
        await events.publish(services.redis, events.TaskListChanged(task_id=task["id"], change="round_opened"))
    if services is not None:
        await webhooks.emit(services, webhooks.round_opened(row))
    return row


async def set_round_targets(round_id: int, target_models: Sequence[TargetRequest], *, services: Services) -> RoundRow:
    """Replace an open round's targets (checked like createRound's); examples already written keep their verdicts."""
    round_row = await get_round(round_id)
    if round_row["end_at"] is not None:
        raise conflict(tr("The round is closed: open a new round from the task's owner page instead."), "roundId")
    task = await queries.task_by_id(round_row["task"])
    assert task is not None  # rounds.task is a foreign key
    targets = await resolve_targets(task, load_config(task), target_models, services)
    row = await queries.set_round_targets(round_id, targets)
    if row is None:
        raise conflict(tr("The round was closed meanwhile: open a new round from the task's owner page instead."), "roundId")
    await events.publish(services.redis, events.RoundTargetsChanged(round_id=round_id))
    return row


async def close_round(round_id: int, *, redis: Redis | None = None, services: Services | None = None) -> RoundRow:
    """Stop collection in a round (idempotent: closing a closed round keeps its first end time);
    announced (RoundClosed) when given a Redis, and to webhooks when given the services and it was open."""
    before = await get_round(round_id)
    row = await queries.close_round(round_id)
    if redis is not None:
        await events.publish(
            redis, events.RoundClosed(round_id=row["id"]), events.TaskListChanged(task_id=row["task"], change="round_closed")
        )
    if services is not None and before["end_at"] is None:
        await webhooks.emit(services, webhooks.round_closed(row))
    return row


async def get_round(round_id: int) -> RoundRow:
    row = await queries.round_by_id(round_id)
    if row is None:
        raise not_found(tr("That round"))
    return row


async def add_contexts(round_row: RoundRow, contexts: list[dict]) -> int:
    """Validate every context against the task's context fields, then insert them all or none."""
    config = await round_config(round_row)
    specs = {f.name: f for f in config.context_fields}
    if not contexts:
        raise invalid(tr("No contexts given."), FieldProblem("contexts", tr("is empty")))
    if len(contexts) > MAX_CONTEXTS_PER_CALL:
        raise invalid(
            tr("At most {limit} contexts per call; split the upload.", limit=MAX_CONTEXTS_PER_CALL),
            FieldProblem("contexts", tr("too many")),
        )
    problems: list[FieldProblem] = []
    rows: list[NewContext] = []
    for i, context in enumerate(contexts):
        fields, tag = context.get("fields"), context.get("tag")
        if not isinstance(fields, dict):
            problems.append(FieldProblem(f"contexts.{i}.fields", tr("must be an object")))
            continue
        missing = sorted(set(specs) - set(fields))
        extra = sorted(set(fields) - set(specs))
        if missing:
            problems.append(FieldProblem(f"contexts.{i}.fields", tr("missing {names}", names=", ".join(missing))))
        if extra:
            problems.append(FieldProblem(f"contexts.{i}.fields", tr("unknown field(s) {names}", names=", ".join(extra))))
        for name, value in fields.items():
            spec = specs.get(name)
            if spec is None:
                continue
            if not isinstance(value, str) or not value.strip():
                problems.append(FieldProblem(f"contexts.{i}.fields.{name}", tr("must be non-empty text")))
            elif len(value) > spec.max_length:
                problems.append(
                    FieldProblem(f"contexts.{i}.fields.{name}", tr("longer than {limit} characters", limit=spec.max_length))
                )
            elif problem := text_problem(value):
                problems.append(FieldProblem(f"contexts.{i}.fields.{name}", problem))
        if tag is not None and (not isinstance(tag, str) or len(tag) > 100 or text_problem(tag)):
            problems.append(FieldProblem(f"contexts.{i}.tag", tr("must be text of at most 100 characters")))
        rows.append({"fields": fields, "tag": tag})
        if len(problems) >= 50:
            break
    if problems:
        raise invalid(tr("Some contexts are not valid; none were added."), *problems)
    async with db.transaction():
        await queries.insert_contexts(round_row["id"], rows)
    return len(rows)
