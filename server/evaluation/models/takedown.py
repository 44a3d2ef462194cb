"""An admin takes a submission down (docs/design.md §14): it is unpublished for good, leaves every leaderboard
(queries.evaluated_models) and every open round's targets, and its owner reads the reason (Model.takenDownReason
and a `model_taken_down` notification).

Runs inside the caller's transaction (server/admin/service.py writes the audit row in the same one), where it records
a ModelTakenDown domain event; the caller announces it (`after_take_down`) once the transaction commits. Idempotent: a model already taken down is left as it is.

Note: a model that is the only target of an open round is refused (CONFLICT naming the task and round): a round
always keeps a target that judges it, so the admin (who has every owner right) first sets another target for that
round (setRoundTargets) or closes it, then takes the model down. Nothing is replaced silently.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from server.core.errors import conflict, not_found
from server.core.i18n import tr
from server.core.services import Services
from server.domain_events import dispatcher as domain_events
from server.evaluation import queries
from server.evaluation.domain_events import ModelTakenDown


@dataclass
class TakeDown:
    model: dict[str, Any]
    already: bool  # it was taken down before: nothing changed
    rounds: list[int] = field(default_factory=list)  # open rounds that lost it as a target
    announced: ModelTakenDown | None = None  # recorded in the take-down's transaction, announced after its commit


async def take_down(model_id: int, reason: str) -> TakeDown:
    """In a transaction: unpublish, mark taken down with the reason, drop it from open rounds' targets, record it."""
    model = await queries.lock_model(model_id)
    if model is None:
        raise not_found(tr("That model"))
    if model["taken_down_at"] is not None:
        return TakeDown(model, already=True)
    rounds = await queries.lock_rounds_judged_by(model_id)
    changed = []
    for round_row in rounds:
        kept = [t for t in round_row["target_models"] if t.get("model_id") != model_id]
        if not kept:
            raise conflict(
                tr(
                    "The model is the only target of round {number} of the task '{task}': "
                    "set another target for that round (or close it) first.",
                    number=round_row["number"],
                    task=round_row["task_code"],
                ),
                "modelId",
            )
        await queries.set_round_targets(round_row["id"], kept)
        changed.append(round_row["id"])
    await queries.take_down(model_id, reason)
    row = await queries.lock_model(model_id)
    assert row is not None
    taken_down = ModelTakenDown(
        model_id=row["id"],
        owner_id=row["owner"],
        name=row["name"],
        triton_name=row["triton_name"],
        status=str(row["status"]),
        reason=reason,
        round_ids=changed,
    )
    return TakeDown(row, already=False, rounds=changed, announced=await domain_events.record(taken_down))


async def after_take_down(services: Services, done: TakeDown) -> None:
    """After commit: rounds re-read their targets, followers of the model hear of it, the owner's inbox is told
    (the listeners of ModelTakenDown, server/listeners.py)."""
    if not done.already:
        await domain_events.announce(services, done.announced)
