"""Validation, the voting side: which examples a validator gets, and casting a vote (its aggregation is queued)."""

from __future__ import annotations

from typing import Any

from asyncpg.exceptions import ForeignKeyViolationError

from server import permissions
from server.accounts.viewer import Viewer
from server.annotation import fooling
from server.annotation.quality import gold
from server.annotation.quality import queries as gold_queries
from server.annotation.records import ExampleRow, ExampleStatus, ValidationLabel, ValidationMode, ValidationRow
from server.annotation.validation import jobs as validation_jobs
from server.annotation.validation import queries
from server.annotation.validation_input import check_vote_fields
from server.campaigns.quotas import Action as QuotaAction
from server.campaigns.work import check_quota
from server.core import db, jobs
from server.core.errors import FieldProblem, ServiceError, invalid, not_found
from server.core.i18n import tr
from server.core.jsonutil import from_json
from server.core.services import Services
from server.core.storable import text_problem
from server.tasks.config import TaskConfig
from server.tasks.service import check_accepts_votes, get_round, get_task, round_config
from server.tasks.visibility import check_task_visible

CLAIM_MINUTES = 10
MAX_NOTE = 2000


async def next_examples_to_validate(viewer: Viewer, round_id: int, first: int) -> list[ExampleRow]:
    round_row = await get_round(round_id)
    config = await round_config(round_row)
    if viewer.user_id in await gold.paused_users(round_row["task"], config, [viewer.user_id]):
        return []  # paused by the gold rule: no more items in this task
    async with db.transaction():
        await queries.serialize_picks(round_id)
        ids = await queries.pick_candidates(round_id, viewer.user_id, first)
        if ids:
            await queries.claim(ids, viewer.user_id, CLAIM_MINUTES)
    ids = await gold.mix_gold(round_id, viewer.user_id, config, ids, first)  # gold items, served like the others
    if not ids:
        return []
    by_id = {row["id"]: row for row in await queries.examples_by_ids(ids)}
    return [by_id[i] for i in ids]


async def waiting_count(user_id: int, round_id: int, cap: int) -> int:
    """How many examples the validator would be handed (up to `cap`): none while the gold rule pauses them, else the
    open examples of the round that are not theirs and that they have not voted on. The same rule as the hand-out, so
    the page never shows a count beside an empty queue."""
    return (await waiting_counts(round_id, [user_id], cap))[user_id]


async def waiting_counts(round_id: int, user_ids: list[int], cap: int) -> dict[int, int]:
    """`waiting_count` of several validators of a round, in four statements whatever their number."""
    round_row = await get_round(round_id)
    paused = await gold.paused_users(round_row["task"], await round_config(round_row), user_ids)
    counting = [user for user in user_ids if user not in paused]
    counts = await queries.count_votable_many(round_id, counting, cap) if counting else {}
    return {user: counts.get(user, 0) for user in user_ids}


async def validate_example(
    services: Services, viewer: Viewer, example_id: int, label: str, mode: str, note: str, fields: Any = None
) -> ValidationRow:
    """A vote, with the task's validator fields asked for its label (`fields`: {name: value}, docs/task-config.md)."""
    if label not in tuple(ValidationLabel):
        raise invalid(tr("Unknown label."), FieldProblem("label", tr("must be CORRECT, INCORRECT or FLAGGED")))
    if len(note) > MAX_NOTE or text_problem(note):
        raise invalid(tr("The note is not valid."), FieldProblem("note", tr("at most {max} characters of text", max=MAX_NOTE)))
    example = await queries.example_by_id(example_id)
    if example is None:
        raise not_found(tr("That example"))
    round_row = await get_round(example["round"])
    task = await get_task(round_row["task"])
    await check_task_visible(viewer, task, tr("That example"))  # a hidden task's example ids are sequential: no proof
    check_accepts_votes(task)  # an archived task is read-only
    denied = permissions.vote_on_example(viewer, example, round_row["task"], owner_mode=mode == ValidationMode.OWNER)
    if denied is not None:
        raise ServiceError(denied.code, denied.message)
    if example["retracted"]:
        raise ServiceError("CONFLICT", tr("This example was retracted by its author."))
    if example["status"] == ExampleStatus.PENDING:
        raise ServiceError("CONFLICT", tr("The model has not judged this example yet."))
    if example["status"] == ExampleStatus.AWAITING_CLAIM:
        raise ServiceError("CONFLICT", tr("The author has not said yet whether the model got this example wrong."))
    config = await round_config(round_row)
    values = await _vote_fields(config, example, label, fields)
    label = fooling.rated_vote_label(config, label, values)  # validator_rating: the rating is the answer
    await gold.check_not_paused(round_row["task"], config, viewer.user_id)
    gold_item = await gold_queries.gold_of_example(example_id) if mode == ValidationMode.USER else None
    if gold_item is not None:  # graded, never a vote (quality/gold.py)
        return await gold.answer_gold(services, gold_item, config, viewer.user_id, label)  # type: ignore[return-value]
    try:
        async with db.transaction():
            inserted = await _store_vote(viewer.user_id, example, label, mode, note, values)
    except ForeignKeyViolationError:
        # The example went meanwhile (its author's account was deleted in a task that removes a deleted person's work).
        raise not_found(tr("That example")) from None
    await jobs.enqueue(services.arq, validation_jobs.aggregate_example, example_id)
    return inserted


async def _store_vote(user_id: int, example: ExampleRow, label: str, mode: str, note: str, values: dict) -> ValidationRow:
    """In the caller's transaction: the vote, its claim released and the voter's counter moved."""
    await check_quota(user_id, example["round"], QuotaAction.VALIDATION)  # campaign workers' quotas
    inserted = await queries.insert_vote(example["id"], user_id, label, mode, note.strip(), values)
    if inserted is None:
        # Its own code: the PWA's outbox takes it as "this vote is stored" after a lost reply.
        raise ServiceError("ALREADY_VALIDATED", tr("You have already validated this example."))
    await queries.release_claim(example["id"], user_id)
    await queries.count_validation_done(user_id, example["round"])
    return inserted


async def _vote_fields(config: TaskConfig, example: ExampleRow, label: str, fields: Any) -> dict[str, Any]:
    if not config.validator_fields:
        if fields:  # not an object, or values for fields the task does not have
            raise invalid(tr("This task asks validators nothing besides the vote."), FieldProblem("fields", tr("must be empty")))
        return {}
    spans = any(spec.type == "span" for spec in config.validator_fields)
    context = from_json(await queries.context_fields(example["context"])) if spans else {}
    return check_vote_fields(config, context or {}, label, fields)
