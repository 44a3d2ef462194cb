"""The join flow of a campaign worker: join (create or resume one pseudonymous account per campaign and external
worker id), consent, the onboarding quiz, finish (the completion code and where to take it). docs/design.md §8."""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from server.accounts import credentials
from server.campaigns import entry as crowd_entry
from server.campaigns import ledger, queries
from server.campaigns.entry import CompletionTarget, EntryRefusal, Platform, WorkerEntry
from server.campaigns.quiz import MAX_QUESTIONS, QuizOutcome, QuizRefusal, QuizResult, grade
from server.campaigns.records import CampaignRow, CampaignStatus, WorkerRow, WorkerStage
from server.campaigns.service import campaign_by_code, get_campaign, id_secret, quiz_of
from server.campaigns.work import WorkerState, stage_of, worker_state
from server.core import db, rate_limits
from server.core.errors import FieldProblem, ServiceError, invalid, not_found
from server.core.i18n import tr
from server.core.services import Services

PARAM_NAME_MAX = 64
PARAM_VALUE_MAX = 512


@dataclass(frozen=True)
class Preview:
    campaign: CampaignRow


@dataclass(frozen=True)
class Joined:
    token: str
    state: WorkerState


@dataclass(frozen=True)
class Completion:
    code: str
    target: CompletionTarget | None
    screened_out: bool


def _params(params: Sequence[tuple[str, str]] | None, query: str | None) -> dict[str, list[str]]:
    if query is not None:
        parsed = crowd_entry.parse_query(query.removeprefix("?"))
        if isinstance(parsed, EntryRefusal):
            raise invalid(parsed.message, FieldProblem("query", parsed.message))
        return parsed
    out: dict[str, list[str]] = {}
    items = list(params or ())
    if len(items) > crowd_entry.MAX_QUERY_FIELDS:
        raise invalid(tr("This join link has too many parameters."), FieldProblem("params", tr("too many parameters")))
    for name, value in items:
        if len(name) > PARAM_NAME_MAX or len(value) > PARAM_VALUE_MAX:
            raise invalid(
                tr("This join link is too long to be a real one."), FieldProblem("params", tr("a parameter is too long"))
            )
        out.setdefault(name, []).append(value)
    return out


async def join_campaign(
    services: Services,
    code: str,
    params: Sequence[tuple[str, str]] | None,
    query: str | None,
    client_id: uuid.UUID,
    address: str | None,
) -> Preview | Joined:
    settings = services.settings
    campaign = await campaign_by_code(code)
    await rate_limits.take(
        services.redis, settings, rate_limits.Action.JOIN_CAMPAIGN, account=campaign["id"] if campaign else None, address=address
    )
    if campaign is None:
        raise not_found(tr("That campaign (check the link)"))
    if campaign["status"] != CampaignStatus.OPEN:
        raise ServiceError("CONFLICT", tr("This campaign is closed: it takes no more workers."))
    entry = crowd_entry.parse_entry(Platform(campaign["platform"]), _params(params, query))
    if isinstance(entry, EntryRefusal):
        raise invalid(entry.message, FieldProblem(f"params.{entry.parameter}", entry.message))
    if entry.preview:
        return Preview(campaign)
    external = entry.external_id if entry.external_id is not None else f"client\x1f{client_id}"
    key = crowd_entry.external_id_key(id_secret(settings), entry.platform, external)
    stored_entry = {
        k: getattr(entry, k) for k in ("study_id", "session_id", "assignment_id", "hit_id", "submit_to") if getattr(entry, k)
    }
    async with db.transaction():
        worker = await queries.worker_by_key(campaign["id"], key)
        if worker is None:
            user_id = await queries.insert_crowd_user(f"crowd-{secrets.token_hex(8)}")
            worker = await queries.insert_worker(campaign["id"], user_id, key, stored_entry)
            if worker is None:  # a concurrent join of the same worker won (the unique key waited for it)
                await queries.delete_user(user_id)
                worker = await queries.worker_by_key(campaign["id"], key)
                assert worker is not None
        elif stored_entry and stored_entry != worker["entry"]:
            await queries.set_entry(worker["id"], stored_entry)  # a new assignment of the same worker
            worker = {**worker, "entry": stored_entry}
    token = credentials.issue_session_token(worker["user"], settings.jwt_secret, settings.jwt_ttl_seconds)
    return Joined(token, await worker_state(campaign, worker))


async def my_worker(user_id: int, campaign_id: int) -> tuple[CampaignRow, WorkerRow]:
    worker = await queries.worker_of_user(user_id)
    if worker is None or worker["campaign"] != campaign_id:
        raise not_found(tr("Your place in that campaign"))
    return await get_campaign(campaign_id), worker


async def state(user_id: int, campaign_id: int) -> WorkerState:
    campaign, worker = await my_worker(user_id, campaign_id)
    return await worker_state(campaign, worker)


async def state_if_worker(user_id: int, campaign_id: int) -> WorkerState | None:
    """The state, or None when this account has no place in that campaign (hidden like an absent campaign)."""
    worker = await queries.worker_of_user(user_id)
    if worker is None or worker["campaign"] != campaign_id:
        return None
    return await worker_state(await get_campaign(campaign_id), worker)


async def give_consent(user_id: int, campaign_id: int) -> WorkerState:
    campaign, worker = await my_worker(user_id, campaign_id)
    if stage_of(campaign, worker) is WorkerStage.CONSENT:
        await queries.set_consent(worker["id"])
    return await state(user_id, campaign_id)


async def submit_quiz(user_id: int, campaign_id: int, answers: Mapping[str, str]) -> tuple[QuizResult, WorkerState]:
    if len(answers) > MAX_QUESTIONS:
        raise invalid(tr("Too many answers."), FieldProblem("answers", tr("at most {limit}", limit=MAX_QUESTIONS)))
    async with db.transaction():
        campaign, _ = await my_worker(user_id, campaign_id)
        worker = await queries.worker_of_user(user_id, lock=True)  # one attempt at a time
        assert worker is not None
        quiz = quiz_of(campaign)
        stage = stage_of(campaign, worker)
        if quiz is None or stage is not WorkerStage.QUIZ:
            raise ServiceError("CONFLICT", _NO_QUIZ.get(stage, tr("This campaign has no quiz to take.")))
        result = grade(quiz, answers, worker["quiz_attempts"])
        if isinstance(result, QuizRefusal):
            raise invalid(result.message, FieldProblem("answers", result.message))
        final = result.outcome is QuizOutcome.FAILED_FINAL
        await queries.set_quiz(worker["id"], result.attempt, result.passed, final)
    return result, await state(user_id, campaign_id)


_NO_QUIZ = {
    WorkerStage.CONSENT: tr("Give your consent first."),
    WorkerStage.WORK: tr("You have passed the quiz already."),
    WorkerStage.DONE: tr("You have finished this campaign."),
    WorkerStage.SCREENED_OUT: tr("You have no attempts left at this quiz."),
}


async def finish(services: Services, user_id: int, campaign_id: int) -> tuple[Completion, WorkerState]:
    """The completion code (or the screened-out code after a failed quiz) and where to take it. Idempotent."""
    campaign, worker = await my_worker(user_id, campaign_id)
    stage = stage_of(campaign, worker)
    if stage in (WorkerStage.CONSENT, WorkerStage.QUIZ):
        raise ServiceError("CONFLICT", tr("Give your consent and pass the quiz before finishing."))
    if stage is WorkerStage.WORK:
        await queries.set_finished(worker["id"])
        await ledger.recompute(campaign_id)  # the base pay is earned now: the completion page shows it
    screened = stage is WorkerStage.SCREENED_OUT
    return completion(campaign, worker, screened), await state(user_id, campaign_id)


def completion(campaign: CampaignRow, worker: WorkerRow, screened_out: bool) -> Completion:
    code = campaign["failure_code"] if screened_out else campaign["completion_code"]
    stored = worker["entry"] or {}
    entry = WorkerEntry(
        Platform(campaign["platform"]),
        None,
        assignment_id=stored.get("assignment_id"),
        hit_id=stored.get("hit_id"),
        submit_to=stored.get("submit_to"),
    )
    return Completion(code, crowd_entry.completion_target(entry, code, campaign["completion_redirect"]), screened_out)
