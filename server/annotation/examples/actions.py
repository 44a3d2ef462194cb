"""What annotators do to their own examples afterwards: retract, flag, explain."""

from __future__ import annotations

from server import permissions
from server.accounts.viewer import Principal
from server.annotation.examples import queries
from server.annotation.records import ExampleRow
from server.campaigns import ledger as campaign_ledger
from server.core import db, events
from server.core.errors import FieldProblem, ServiceError, invalid, not_found
from server.core.i18n import tr
from server.core.services import Services
from server.core.storable import text_problem

MAX_REASON = 2000


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
    await campaign_ledger.outcome_changed(services, row["round"])  # a retracted example earns no campaign bonus
    await events.publish(
        services.redis,
        events.RoundStatsChanged(round_id=row["round"]),
        events.MyExampleChanged(user_id=row["user"], example_id=example_id, change="retracted"),
    )
    return row


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
