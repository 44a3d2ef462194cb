"""An admin takes a submission down (docs/design.md §14): it is unpublished for good, leaves every leaderboard
(queries.evaluated_models) and every open round's targets, and its owner reads the reason (Model.takenDownReason
and a `model_taken_down` notification).

Runs inside the caller's transaction (server/admin/service.py writes the audit row in the same one); the caller
publishes `after_take_down`'s events once it commits. Idempotent: a model already taken down is left as it is.

Note: a model that is the only target of an open round is refused (CONFLICT naming the task and round): a round
always keeps a target that judges it, so the admin (who has every owner right) first sets another target for that
round (setRoundTargets) or closes it, then takes the model down. Nothing is replaced silently.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from redis.asyncio import Redis

from server.core import events
from server.core.errors import conflict, not_found
from server.core.i18n import tr
from server.evaluation import queries
from server.notifications import producers
from server.notifications import service as notification_service
from server.notifications.records import NotificationRow


@dataclass
class TakeDown:
    model: dict[str, Any]
    already: bool  # it was taken down before: nothing changed
    rounds: list[int] = field(default_factory=list)  # open rounds that lost it as a target
    notified: list[NotificationRow] = field(default_factory=list)


async def take_down(model_id: int, reason: str) -> TakeDown:
    """In a transaction: unpublish, mark taken down with the reason, drop it from open rounds' targets, notify."""
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
    notified = await producers.model_taken_down(model, reason)
    row = await queries.lock_model(model_id)
    assert row is not None
    return TakeDown(row, already=False, rounds=changed, notified=[notified] if notified else [])


async def after_take_down(redis: Redis, done: TakeDown) -> None:
    """After commit: rounds re-read their targets, followers of the model hear of it, the owner's inbox is told."""
    if done.already:
        return
    await events.publish(
        redis,
        *(events.RoundTargetsChanged(round_id=round_id) for round_id in done.rounds),
        events.ModelChanged(model_id=done.model["id"], status=done.model["status"]),
    )
    await notification_service.announce_live(redis, done.notified)
