"""Owners look through a round's examples, open one with its votes and history, and act on many at once. Every
rule is the task's owners (and admins): server/permissions/examples.py `review_examples`."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from server import permissions
from server.accounts.records import TokenScope
from server.accounts.viewer import Viewer
from server.annotation.browse import queries
from server.annotation.browse.filters import ExampleFilter, flag_queue, problems
from server.annotation.examples import queries as example_queries
from server.annotation.records import ExampleRow, ValidationLabel, ValidationMode
from server.annotation.validation import aggregating, voting
from server.campaigns import ledger as campaign_ledger
from server.core import db, events
from server.core.errors import FieldProblem, ServiceError, invalid, not_found
from server.core.i18n import tr
from server.core.services import Services
from server.core.storable import text_problem
from server.tasks.service import get_round

MAX_BULK = 100
MAX_NOTE = 2000


class BulkAction(StrEnum):
    VALIDATE_CORRECT = "validate_correct"  # an owner-mode vote: decides at once
    VALIDATE_INCORRECT = "validate_incorrect"
    VALIDATE_FLAGGED = "validate_flagged"
    RESOLVE_FLAG = "resolve_flag"  # the author's flag is dealt with: the example leaves the flag queue
    RETRACT = "retract"  # abusive or broken: out of the counts, exports and queues (kept, with this history)


_LABEL_OF = {
    BulkAction.VALIDATE_CORRECT: ValidationLabel.CORRECT,
    BulkAction.VALIDATE_INCORRECT: ValidationLabel.INCORRECT,
    BulkAction.VALIDATE_FLAGGED: ValidationLabel.FLAGGED,
}


@dataclass(frozen=True)
class ItemOutcome:
    example_id: int
    example: ExampleRow | None  # the example after the action; None when it is unknown to the viewer
    code: str | None = None  # None: done
    message: str = ""


@dataclass(frozen=True)
class Review:
    example: ExampleRow
    votes: list[dict[str, Any]]
    history: list[dict[str, Any]]
    gold_answer: str | None


def _check(viewer: Viewer | None, task_id: int) -> None:
    denied = permissions.review_examples(viewer, task_id)
    if denied is not None:
        raise ServiceError(denied.code, denied.message)


def _check_filter(f: ExampleFilter) -> None:
    found = problems(f)
    if found:
        raise invalid(tr("The filter is not valid."), *found)


async def round_examples(viewer: Viewer | None, round_id: int, f: ExampleFilter, below: int, limit: int) -> list[dict]:
    round_row = await get_round(round_id)
    _check(viewer, round_row["task"])
    _check_filter(f)
    return await queries.browse("round", round_id, f, below, limit)


async def flagged_examples(viewer: Viewer | None, task_id: int, below: int, limit: int) -> list[dict]:
    """The task's flag queue across its rounds, newest first."""
    _check(viewer, task_id)
    return await queries.browse("task", task_id, flag_queue(), below, limit)


async def _reviewable(viewer: Viewer, example_id: int) -> ExampleRow:
    """The example, if the viewer owns its task; otherwise NOT_FOUND (whether it exists is not told)."""
    row = await example_queries.example_by_id(example_id)
    if row is None:
        raise not_found(tr("That example"))
    task_id = (await get_round(row["round"]))["task"]
    if permissions.review_examples(viewer, task_id) is not None:
        raise not_found(tr("That example"))
    return row


def _check_signed_in(viewer: Viewer | None) -> Viewer:
    """Anonymous callers and tokens without the admin scope are told so before any example is looked up."""
    denied = permissions.signed_in(viewer, TokenScope.ADMIN)
    if denied is not None or viewer is None:
        raise ServiceError(denied.code if denied else "AUTHENTICATION_REQUIRED", denied.message if denied else "")
    return viewer


async def review(viewer: Viewer | None, example_id: int) -> Review:
    row = await _reviewable(_check_signed_in(viewer), example_id)
    return Review(row, await queries.votes(example_id), await queries.history(example_id), await queries.gold_answer(example_id))


async def bulk(services: Services, viewer: Viewer, example_ids: list[int], action: str, note: str) -> list[ItemOutcome]:
    """Each example on its own: one refused (not the viewer's to review, own example, already retracted...) does
    not stop the others; each done action is recorded in the example's history with the note."""
    if not example_ids or len(example_ids) > MAX_BULK:
        raise invalid(tr("Choose the examples."), FieldProblem("exampleIds", tr("1 to {max} examples", max=MAX_BULK)))
    if len(note) > MAX_NOTE or text_problem(note):
        raise invalid(tr("The note is not valid."), FieldProblem("note", tr("at most {max} characters of text", max=MAX_NOTE)))
    chosen = BulkAction(action)
    outcomes = []
    for example_id in dict.fromkeys(example_ids):  # each once, in the order given
        row = None
        try:
            row = await _reviewable(viewer, example_id)
            await _act(services, viewer, row, chosen, note.strip())
        except ServiceError as error:
            outcomes.append(ItemOutcome(example_id, row, error.code, error.message))
            continue
        outcomes.append(ItemOutcome(example_id, await example_queries.example_by_id(example_id)))
    return outcomes


async def _act(services: Services, viewer: Viewer, row: ExampleRow, action: BulkAction, note: str) -> None:
    example_id = row["id"]
    if action in _LABEL_OF:
        await voting.validate_example(services, viewer, example_id, _LABEL_OF[action], ValidationMode.OWNER, note)
        await queries.record_event(example_id, viewer.user_id, action.value, note)
        # An owner's vote decides at once: decide it now (the queued job finds it done), so the example this action
        # answers is the decided one and the owner's list shows the outcome without reloading.
        await aggregating.aggregate(services, example_id)
        return
    if row["retracted"]:
        raise ServiceError("CONFLICT", tr("This example is already retracted."))
    if action is BulkAction.RESOLVE_FLAG:
        async with db.transaction():
            if not await queries.resolve_flag(example_id):
                raise ServiceError("CONFLICT", tr("Its author did not flag this example (or the flag was resolved)."))
            await queries.record_event(example_id, viewer.user_id, action.value, note)
        await events.publish(
            services.redis, events.MyExampleChanged(user_id=row["user"], example_id=example_id, change="flagged")
        )
        return
    async with db.transaction():  # RETRACT, by an owner: the same recount as the author's retraction
        await example_queries.retract(example_id)
        await queries.record_event(example_id, viewer.user_id, action.value, note)
    await campaign_ledger.outcome_changed(services, row["round"])
    await events.publish(
        services.redis,
        events.RoundStatsChanged(round_id=row["round"]),
        events.MyExampleChanged(user_id=row["user"], example_id=example_id, change="retracted"),
    )
