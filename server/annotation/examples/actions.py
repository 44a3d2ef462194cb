"""What annotators do to their own examples afterwards: retract, flag, explain."""

from __future__ import annotations

import logging

from server import permissions
from server.accounts.viewer import Principal
from server.annotation.examples import queries
from server.annotation.records import ExampleRow, ExampleStatus
from server.annotation.validation import queries as validation_queries
from server.campaigns import ledger as campaign_ledger
from server.core import db, events
from server.core.errors import FieldProblem, ServiceError, invalid, not_found
from server.core.i18n import tr
from server.core.services import Services
from server.core.storable import text_problem

MAX_REASON = 2000
log = logging.getLogger("dynabench.annotation")


async def own_example(example_id: int, viewer: Principal) -> ExampleRow:
    row = await queries.example_by_id(example_id)
    if row is None:
        raise not_found(tr("That example"))
    denied = permissions.change_example(viewer, row)
    if denied is not None:
        raise ServiceError(denied.code, denied.message)
    return row


async def retract_example(services: Services, example_id: int, viewer: Principal) -> ExampleRow:
    """Idempotent: retracting twice changes nothing the second time."""
    await own_example(example_id, viewer)
    async with db.transaction():
        await queries.retract(example_id)
    row = await own_example(example_id, viewer)
    try:  # a retracted example earns no campaign bonus
        await campaign_ledger.outcome_changed(services, row["round"])
    except Exception:  # Redis unreachable: committed all the same, and the ledgers' sweep recomputes them
        log.warning("could not queue the campaign ledgers of round %s after a retraction", row["round"], exc_info=True)
    news: list[events.Event] = [
        events.RoundStatsChanged(round_id=row["round"]),
        events.MyExampleChanged(user_id=row["user"], example_id=example_id, change="retracted"),
    ]
    if row["status"] == ExampleStatus.OPEN:  # it leaves the validation queue, and the pages that show it
        news.append(await _left_queue(row["round"], example_id))
    services.publisher.publish_soon(news)  # after commit, best effort: the rows are the truth
    return row


async def _left_queue(round_id: int, example_id: int) -> events.VoteCounted:
    """The news for the validators who may show it (see VoteCounted); all of them when its claims cannot be read."""
    try:
        holders: tuple[int, ...] | None = (await validation_queries.claim_holders([example_id])).get(example_id, ())
    except Exception:  # the retraction has committed: too many removals beat none
        log.warning("could not read who holds example %s; telling every validator it left", example_id, exc_info=True)
        holders = None
    return events.VoteCounted(round_id=round_id, example_id=example_id, still_open=False, voter_ids=(), holder_ids=holders)


async def flag_example(services: Services, example_id: int, viewer: Principal, reason: str) -> ExampleRow:
    await own_example(example_id, viewer)
    if len(reason) > MAX_REASON or text_problem(reason):
        raise invalid(
            tr("The reason is not valid."), FieldProblem("reason", tr("at most {max} characters of text", max=MAX_REASON))
        )
    await queries.flag(example_id, reason.strip())
    row = await own_example(example_id, viewer)
    await events.publish(services.redis, events.MyExampleChanged(user_id=row["user"], example_id=example_id, change="flagged"))
    return row


async def explain_example(services: Services, example_id: int, viewer: Principal, explanation: str) -> ExampleRow:
    await own_example(example_id, viewer)
    if len(explanation) > MAX_REASON or text_problem(explanation):
        raise invalid(
            tr("The explanation is not valid."),
            FieldProblem("explanation", tr("at most {max} characters of text", max=MAX_REASON)),
        )
    await queries.explain(example_id, explanation.strip())
    row = await own_example(example_id, viewer)
    await events.publish(services.redis, events.MyExampleChanged(user_id=row["user"], example_id=example_id, change="explained"))
    return row
