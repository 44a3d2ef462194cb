"""What the evaluation domain's live views do when a model's status changes or it is taken down (registered by
server/listeners.py)."""

from __future__ import annotations

from server.core import events
from server.core.services import Services
from server.domain_events.dispatcher import listens
from server.evaluation.domain_events import ModelStatusChanged, ModelTakenDown


@listens(ModelStatusChanged)
async def refresh_model_views(services: Services, event: ModelStatusChanged) -> None:
    await events.publish(services.redis, events.ModelChanged(model_id=event.model_id, status=event.status))


@listens(ModelTakenDown)
async def refresh_after_take_down(services: Services, event: ModelTakenDown) -> None:
    """Rounds that lost it re-read their targets; followers of the model hear of it."""
    await events.publish(
        services.redis,
        *(events.RoundTargetsChanged(round_id=round_id) for round_id in event.round_ids),
        events.ModelChanged(model_id=event.model_id, status=event.status),
    )
