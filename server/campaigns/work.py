"""A campaign worker's state (stage, quota left, money) and the quota check at the write: the ONE hook the example
and validation services call inside their insert's transaction."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from server.campaigns import ledger_rules, queries, quotas
from server.campaigns.quotas import Action, Counts, Remaining
from server.campaigns.records import CampaignRow, CampaignStatus, WorkerRow, WorkerStage
from server.campaigns.service import quiz_of, quota_rules
from server.core.errors import ServiceError
from server.core.i18n import tr


@dataclass(frozen=True)
class WorkerState:
    campaign: CampaignRow
    worker: WorkerRow
    stage: WorkerStage
    remaining: Remaining
    quiz_attempts_left: int
    earned_cents: int
    pending_cents: int


def stage_of(campaign: CampaignRow, worker: WorkerRow) -> WorkerStage:
    if worker["screened_out"]:
        return WorkerStage.SCREENED_OUT
    if worker["finished_at"] is not None:
        return WorkerStage.DONE
    if worker["consented_at"] is None:
        return WorkerStage.CONSENT
    if campaign["quiz"] and not worker["quiz_passed"]:
        return WorkerStage.QUIZ
    return WorkerStage.WORK


async def counts(campaign: CampaignRow, user_id: int, now: datetime | None = None) -> Counts:
    start, end = quotas.utc_day_bounds(quotas.utc_day(now or datetime.now(UTC)))
    row = await queries.worker_counts(campaign["id"], campaign["round"], user_id, start, end)
    return Counts(**row)


async def worker_state(campaign: CampaignRow, worker: WorkerRow) -> WorkerState:
    left = quotas.remaining(quota_rules(campaign), await counts(campaign, worker["user"]))
    quiz = quiz_of(campaign)
    lines = [_line(r) for r in await queries.ledger_of_worker(campaign["id"], worker["user"])]
    total = ledger_rules.campaign_totals(lines)
    return WorkerState(
        campaign,
        worker,
        stage_of(campaign, worker),
        left,
        max(0, quiz.attempts - worker["quiz_attempts"]) if quiz else 0,
        total.earned_cents,
        total.pending_cents,
    )


def _line(row: dict[str, Any]) -> ledger_rules.LedgerLine:
    return ledger_rules.LedgerLine(
        row["key"],
        row["worker"],
        ledger_rules.LineKind(row["kind"]),
        row["amount_cents"],
        row["reason"],
        ledger_rules.LineStatus(row["status"]),
    )


async def quota_applies(user_id: int, round_id: int) -> bool:
    """Whether check_quota has anything to check for a write of this account in this round (it works for a campaign
    on the round): a write that needs no other check can then skip the transaction check_quota needs."""
    worker = await queries.worker_of_user(user_id)
    if worker is None:
        return False
    campaign = await queries.campaign_by_id(worker["campaign"])
    return campaign is not None and campaign["round"] == round_id


async def check_quota(user_id: int, round_id: int, action: Action) -> None:
    """Call inside the write's transaction. Nothing for an account that is not a campaign worker. For a worker of a
    campaign on this round: locks the worker's row (and the campaign's when it has an example budget, which all its
    workers share), so concurrent writes at the quota's edge serialize and exactly the allowed number succeeds."""
    worker = await queries.worker_of_user(user_id)
    if worker is None:
        return
    campaign = await queries.campaign_by_id(worker["campaign"])
    if campaign is None or campaign["round"] != round_id:
        return
    if action is Action.EXAMPLE and quota_rules(campaign).example_budget is not None:
        await queries.lock_campaign(campaign["id"])  # lock order: campaign, then worker
    worker = await queries.worker_of_user(user_id, lock=True)
    assert worker is not None
    if campaign["status"] != CampaignStatus.OPEN:
        raise ServiceError("CONFLICT", tr("This campaign is not open."))
    stage = stage_of(campaign, worker)
    if stage is not WorkerStage.WORK:
        raise ServiceError("CONFLICT", _STAGE_MESSAGES[stage])
    decision = quotas.check(quota_rules(campaign), await counts(campaign, user_id), action)
    if not decision.allowed:
        raise ServiceError("QUOTA_REACHED", decision.message)


_STAGE_MESSAGES = {
    WorkerStage.CONSENT: tr("Give your consent on the campaign's page first."),
    WorkerStage.QUIZ: tr("Pass the campaign's onboarding quiz first."),
    WorkerStage.DONE: tr("You have finished this campaign: thank you."),
    WorkerStage.SCREENED_OUT: tr("This campaign's quiz was not passed, so it has ended for you: thank you for your time."),
}
