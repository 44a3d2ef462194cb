"""A task's life after createTask: editing it (every config change a new version; changes that would break an open
round refused), its co-owners, an admin's review of a proposal, and hiding or archiving it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from redis.asyncio import Redis

from server.accounts import reads as account_reads
from server.admin import audit
from server.admin.records import AuditAction, AuditTarget
from server.core import db, events
from server.core.errors import FieldProblem, ServiceError, conflict, invalid, not_found
from server.core.i18n import tr
from server.core.services import Services
from server.core.storable import text_problem
from server.domain_events import dispatcher as domain_events
from server.tasks import queries
from server.tasks.config import parse_task_config
from server.tasks.config_changes import breaking_changes
from server.tasks.domain_events import TaskReviewed
from server.tasks.records import VISIBILITIES, TaskRow, TaskStatus
from server.tasks.service import checked_config, load_config, round_config, text_problems
from server.tasks.suggestion_generator import generator_problems

MAX_NOTE = 2000
UNCHANGED: Any = object()  # an edit that leaves the config as it is


@dataclass(frozen=True)
class TaskEdit:
    name: str | None = None
    description: str | None = None
    instructions: str | None = None
    config: Any = UNCHANGED  # the new config document


def _archived(task: TaskRow) -> ServiceError:
    return conflict(tr("The task is archived (read-only): make it public or hidden again (setTaskVisibility) to edit it."))


async def update_task(
    task_id: int, user_id: int, edit: TaskEdit, *, redis: Redis | None = None, services: Services | None = None
) -> TaskRow:
    """Change the task's texts and config (`_update_task`); announced to live task lists when given a Redis. With
    `services`, the suggestions' generator a new config names is checked live (suggestion_generator.py), unless it is
    the one the task already names (an edit of something else is not refused while that generator is away)."""
    if services is not None and edit.config is not UNCHANGED:
        config, _errors = parse_task_config(edit.config)
        current = await queries.task_by_id(task_id)
        same = (
            current is not None
            and config is not None
            and load_config(current).suggestions.generator == config.suggestions.generator
        )
        if config is not None and not same and (generator := await generator_problems(services, config)):
            raise invalid(tr("The task is not valid."), *generator)
    row = await _update_task(task_id, user_id, edit)
    if redis is not None:
        await events.publish(redis, events.TaskListChanged(task_id=task_id, change="updated"))
    return row


async def _update_task(task_id: int, user_id: int, edit: TaskEdit) -> TaskRow:
    """Change the task's texts and config. A new config becomes the next version (new rounds open with it; an open
    round keeps the one it opened with) and is refused, with the field named, if it would break the open round
    (server/tasks/config_changes.py). Editing a rejected proposal proposes it again."""
    name = edit.name.strip() if edit.name is not None else None
    problems = text_problems(name, edit.description, edit.instructions)
    config = None if edit.config is UNCHANGED else checked_config(edit.config, problems, tr("The task is not valid."))
    if problems:
        raise invalid(tr("The task is not valid."), *problems)
    async with db.transaction():
        task = await queries.lock_task(task_id)
        if task is None:
            raise not_found(tr("That task"))
        if task["status"] == TaskStatus.ARCHIVED:
            raise _archived(task)
        values: dict[str, Any] = {
            key: value
            for key, value in (("name", name), ("description", edit.description), ("instructions", edit.instructions))
            if value is not None
        }
        if config is not None and config != load_config(task):
            open_round = await queries.open_round(task_id)
            if open_round is not None:
                broken = breaking_changes(await round_config(open_round), config)
                if broken:
                    first = broken[0]
                    raise invalid(
                        tr(
                            "This change would break the open round {number} ({field}: {problem}). "
                            "Close the round first, or make an additive change.",
                            number=open_round["number"],
                            field=first.field,
                            problem=first.message,
                        ),
                        *(FieldProblem(f"config.{e.field}", e.message) for e in broken),
                    )
            document = config.model_dump(mode="json")
            version = task["config_version"] + 1
            await queries.insert_config_version(task_id, version, document, user_id)
            values.update(config=document, config_version=version)
        if task["status"] == TaskStatus.REJECTED and values:
            values["status"] = TaskStatus.PROPOSED
        return await queries.update_task(task_id, values) if values else await queries.task_by_id(task_id)  # type: ignore[return-value]


async def owners(task_id: int) -> list[dict[str, Any]]:
    return await queries.owners(task_id)


async def _user_id(username: str) -> int:
    user_id = await account_reads.user_id_by_username(username.strip()) if not text_problem(username) else None
    if user_id is None:
        raise not_found(tr("User '{username}'", username=username.strip()[:60]))
    return user_id


async def add_owner(task_id: int, username: str, *, redis: Redis | None = None) -> list[dict[str, Any]]:
    """The user becomes a co-owner (again: nothing changes); the owners after it. Announced (given a Redis) as the
    task's update: live task lists re-read it, and owner-only feeds re-check who may see the task."""
    user_id = await _user_id(username)
    async with db.transaction():
        await queries.lock_task(task_id)
        await queries.add_owner(task_id, user_id)
        owners = await queries.owners(task_id)
    if redis is not None:
        await events.publish(redis, events.TaskListChanged(task_id=task_id, change="updated"))
    return owners


async def remove_owner(task_id: int, username: str, *, redis: Redis | None = None) -> list[dict[str, Any]]:
    """The user stops owning the task; the last owner cannot be removed. The owners after it. Announced like
    `add_owner`: the removed owner's live feeds of a task they may no longer see end (graphql/tasks/visibility.py)."""
    user_id = await _user_id(username)
    async with db.transaction():
        await queries.lock_task(task_id)  # two owners removing each other at once: one of them stays
        current = await queries.owners(task_id)
        if all(o["id"] != user_id for o in current):
            raise not_found(tr("An owner '{username}' of this task", username=username.strip()[:60]))
        if len(current) == 1:
            raise conflict(tr("A task always keeps one owner: add another owner before removing the last one."), "username")
        await queries.remove_owner(task_id, user_id)
        owners = await queries.owners(task_id)
    if redis is not None:
        await events.publish(redis, events.TaskListChanged(task_id=task_id, change="updated"))
    return owners


def _note_problem(note: str) -> None:
    if len(note) > MAX_NOTE or text_problem(note):
        raise invalid(
            tr("The note is not valid."), FieldProblem("note", tr("at most {limit:,} characters of text", limit=MAX_NOTE))
        )


def _not_a_proposal(status: str) -> str:
    if status == TaskStatus.PUBLIC:
        return tr("The task is not a proposal: it is public already.")
    if status == TaskStatus.HIDDEN:
        return tr("The task is not a proposal: it is hidden already.")
    if status == TaskStatus.ARCHIVED:
        return tr("The task is not a proposal: it is archived already.")
    return tr("The task is not a proposal: it is {status} already.", status=status.lower())


async def review_task(
    task_id: int, *, approve: bool, note: str, services: Services | None = None, actor_id: int | None = None
) -> TaskRow:
    """An admin publishes a proposal (PUBLIC) or rejects it (REJECTED); the note is shown to its owners. Recorded as a
    TaskReviewed domain event and announced after commit (the owners' inboxes and live views listen; without
    `services`, the worker's sweeper announces it). With `actor_id` (the admin), the admins' audit log records it in
    the same transaction (server/admin/audit.py)."""
    _note_problem(note)
    async with db.transaction():
        task = await queries.lock_task(task_id)
        if task is None:
            raise not_found(tr("That task"))
        if task["status"] not in (TaskStatus.PROPOSED, TaskStatus.REJECTED):
            raise conflict(_not_a_proposal(task["status"]), "taskCode")
        status = TaskStatus.PUBLIC if approve else TaskStatus.REJECTED
        row = await queries.update_task(task_id, {"status": status, "review_note": note.strip()})
        owners = [owner["id"] for owner in await queries.owners(task_id)]
        reviewed = await domain_events.record(
            TaskReviewed(
                task_id=task_id, code=row["code"], name=row["name"], approved=approve, note=row["review_note"], owner_ids=owners
            )
        )
        if actor_id is not None:
            action = AuditAction.TASK_APPROVED if approve else AuditAction.TASK_REJECTED
            await audit.record(actor_id, action, AuditTarget.TASK, task_id, row["code"], row["review_note"])
    if services is not None:
        await domain_events.announce(services, reviewed)
    return row


async def set_visibility(task_id: int, visibility: str, *, redis: Redis | None = None, admin_id: int | None = None) -> TaskRow:
    """Public, hidden (not listed; only its owners and admins reach it) or archived (read-only: its open round
    is closed, and no new rounds, examples or votes are taken; its data and exports stay). Proposals are reviewed
    by an admin first."""
    if visibility not in VISIBILITIES:
        raise invalid(tr("Unknown visibility."), FieldProblem("visibility", tr("must be PUBLIC, HIDDEN or ARCHIVED")))
    async with db.transaction():
        task = await queries.lock_task(task_id)
        if task is None:
            raise not_found(tr("That task"))
        if task["status"] not in VISIBILITIES:
            raise conflict(tr("The task is a proposal: an admin approves it (approveTask) before it can be shown or archived."))
        closed = await queries.close_open_rounds(task_id) if visibility == TaskStatus.ARCHIVED else []
        row = await queries.update_task(task_id, {"status": visibility})
        if admin_id is not None and task["status"] != visibility:  # an admin's change: in the admins' audit log
            await audit.record(admin_id, AuditAction.TASK_VISIBILITY, AuditTarget.TASK, task_id, row["code"], visibility)
    if redis is not None:
        await events.publish(
            redis,
            *(events.RoundClosed(round_id=round_id) for round_id in closed),
            events.TaskListChanged(task_id=task_id, change="visibility"),
        )
    return row
