"""Which domain events become webhook events (registered by server/listeners.py). Each webhook event keeps its
domain event's id, so a listener run again (a retry, the sweeper) fans out the same event: one delivery per hook."""

from __future__ import annotations

from server.annotation.domain_events import ExampleAggregated
from server.core.services import Services
from server.domain_events.dispatcher import listens
from server.evaluation.domain_events import ModelStatusChanged
from server.webhooks import dispatch


@listens(ExampleAggregated)
async def example_decided(services: Services, event: ExampleAggregated) -> None:
    if event.decided:
        webhook = dispatch.example_decided(event.example_id, event.round_id, event.task_id, event.status, event.event_id)
        await dispatch.queue_fan_out(services, webhook)


@listens(ModelStatusChanged)
async def model_changed(services: Services, event: ModelStatusChanged) -> None:
    logged = [{"status": status} for status in (event.previous_status, event.status) if status is not None]
    model = {"id": event.model_id, "task": event.task_id, "name": event.name, "status": event.status, "status_log": logged}
    await dispatch.queue_fan_out(services, dispatch.model_changed(model, event.event_id))
