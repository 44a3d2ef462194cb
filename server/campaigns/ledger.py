"""The campaign's payments ledger: recomputed from verified outcomes only (the rules of ledger_rules.py) by the
idempotent job `recompute_campaign_ledger`; the owner's import of approved submissions; the payout export, which
freezes the lines it contains."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from server.campaigns import jobs as campaign_jobs
from server.campaigns import ledger_rules, payouts, queries
from server.campaigns.entry import Platform
from server.campaigns.ledger_rules import ExampleFact, LineStatus, ValidationFact
from server.campaigns.service import get_campaign, id_secret, pay_rules
from server.campaigns.work import _line
from server.core import db, jobs
from server.core.errors import FieldProblem, ServiceError, invalid
from server.core.i18n import tr
from server.core.services import Services
from server.core.settings import Settings


@dataclass(frozen=True)
class LedgerSummary:
    total_cents: int
    pending_cents: int
    exported_cents: int
    workers: int
    unmatched: list[str]  # pseudonyms of accounts with no approved submission (after an import)
    discrepancies: int


@dataclass(frozen=True)
class ImportSummary:
    matched: int
    unmatched_workers: list[str]
    unknown: int  # approved on the platform, no account in this campaign
    not_approved: int
    problems: list[str]


async def recompute(campaign_id: int) -> ledger_rules.LedgerDiff | None:
    """Bring the recorded lines in line with the stored outcomes; exported lines are never touched. Idempotent: the
    campaign row is locked, so concurrent runs serialize and the second finds nothing to do."""
    async with db.transaction():
        campaign = await queries.lock_campaign(campaign_id)
        if campaign is None:
            return None
        recorded = [_line(r) for r in await queries.ledger_lines(campaign_id)]
        examples = [
            ExampleFact(r["id"], r["user"], r["fooled"], r["status"], r["retracted"])
            for r in await queries.example_facts(campaign_id, campaign["round"])
        ]
        votes = await queries.validation_facts(campaign_id, campaign["round"])
        paused = await _paused_validators(campaign["task"], {r["user"] for r in votes})
        validations = [
            ValidationFact(
                r["id"], r["user"], r["label"], r["example_status"], counted=r["mode"] == "user" and r["user"] not in paused
            )
            for r in votes
        ]
        exported = [line for line in recorded if line.status is LineStatus.EXPORTED]
        computed = ledger_rules.compute_lines(
            pay_rules(campaign), await queries.completed_workers(campaign_id), examples, validations, exported
        )
        change = ledger_rules.diff(recorded, computed)
        for line in change.insert:
            await queries.insert_line(campaign_id, line.key, line.worker, line.kind, line.amount_cents, line.reason)
        for line in change.update:
            await queries.update_line(campaign_id, line.key, line.worker, line.kind, line.amount_cents, line.reason)
        for line in change.void:
            await queries.void_line(campaign_id, line.key)
    return change


async def _paused_validators(task_id: int, validators: set[int]) -> set[int]:
    """Validators the gold rule paused on the task: their votes earn no agreement bonus (docs/design.md §4.2)."""
    # Deferred: the annotation domain calls into this one (quota hooks, outcome changes).
    from server.annotation.quality.gold import paused_users
    from server.tasks import reads as task_reads
    from server.tasks.service import load_config

    task = await task_reads.task_by_id(task_id)
    if task is None or not validators:
        return set()
    return await paused_users(task_id, load_config(task), validators)


async def recompute_round(round_id: int) -> None:
    """Recompute now the ledger of each live campaign on the round (the outcome listener: the worker's earnings are
    current before the live views tell them of the outcome, so a page that re-reads on that news shows them)."""
    for campaign_id in await queries.live_campaigns_of_round(round_id):
        await recompute(campaign_id)


async def outcome_changed(services: Services, round_id: int) -> None:
    """An example's outcome in this round changed: recompute the ledger of each live campaign on the round."""
    for campaign_id in await queries.live_campaigns_of_round(round_id):
        await jobs.enqueue(services.arq, campaign_jobs.recompute_campaign_ledger, campaign_id)


async def campaign_updated(services: Services, before: Mapping[str, Any], after: Mapping[str, Any]) -> None:
    """New rates reach the pending lines at once (exported lines never move): the ledger is recomputed."""
    if pay_rules(before) != pay_rules(after):
        await jobs.enqueue(services.arq, campaign_jobs.recompute_campaign_ledger, after["id"])


async def sweep() -> int:
    """The cron's safety net (a lost job): every live campaign recomputed; returns how many lines changed."""
    changed = 0
    for campaign_id in await queries.live_campaigns():
        change = await recompute(campaign_id)
        if change is not None:
            changed += len(change.insert) + len(change.update) + len(change.void)
    return changed


async def summary(campaign_id: int) -> LedgerSummary:
    lines = [_line(r) for r in await queries.ledger_lines(campaign_id)]
    totals = ledger_rules.campaign_totals(lines)
    approved = {r["worker"] for r in await queries.approved(campaign_id)}
    names = await queries.worker_names(campaign_id)
    unmatched = [n["username"] for n in names if n["user"] not in approved] if approved else []
    paid = {line.worker for line in lines if line.status is not LineStatus.VOID}
    return LedgerSummary(totals.earned_cents, totals.pending_cents, totals.exported_cents, len(paid), unmatched, 0)


async def import_approved(settings: Settings, campaign_id: int, text: str) -> ImportSummary:
    campaign = await get_campaign(campaign_id)
    platform = Platform(campaign["platform"])
    parsed = payouts.parse_approved(platform, text)
    if isinstance(parsed, payouts.ImportRefusal):
        raise invalid(parsed.message, FieldProblem("file", parsed.message))
    names = await queries.worker_names(campaign_id)
    accounts = {n["user"]: n["external_key"] for n in names}
    matching = payouts.match_approved(platform, parsed.approved, accounts, id_secret(settings))
    async with db.transaction():
        for worker, submission in matching.matched.items():
            await queries.upsert_approved(
                campaign_id, worker, submission.external_id, submission.assignment_id, submission.submission_id
            )
    by_user = {n["user"]: n["username"] for n in names}
    return ImportSummary(
        len(matching.matched),
        [by_user[w] for w in matching.unmatched_workers],
        len(matching.unknown),
        parsed.not_approved,
        [tr("line {row}: {problem}", row=p.row, problem=p.message) for p in parsed.problems[:50]],
    )


async def export_payouts(campaign_id: int, platform_name: str) -> payouts.PayoutExport:
    """The payout CSV for matched workers' pending lines; those lines are frozen (exported) in the same transaction."""
    async with db.transaction():
        campaign = await queries.lock_campaign(campaign_id)
        assert campaign is not None
        platform = Platform(campaign["platform"])
        if platform.value != platform_name:
            raise invalid(
                tr("This campaign runs on another platform."),
                FieldProblem("format", tr("this campaign is {platform}", platform=platform.name)),
            )
        if platform is Platform.OPEN:
            raise ServiceError("CONFLICT", tr("An open campaign has no platform to pay through."))
        lines = [_line(r) for r in await queries.ledger_lines(campaign_id)]
        approved = await queries.approved(campaign_id)
        matched = {
            r["worker"]: payouts.ApprovedSubmission(r["external_id"], r["assignment_id"], r["submission_id"]) for r in approved
        }
        export = payouts.build_export(platform, lines, payouts.Matching(matched, (), ()))
        if export.keys:
            await queries.export_lines(campaign_id, list(export.keys))
    return export
