"""What reaches people's inboxes when other domains announce an outcome (registered by server/listeners.py). Each
entry is written once: a notification is unique per recipient, kind and subject, so a listener run again writes
nothing new."""

from __future__ import annotations

from server.annotation.domain_events import BadgeEarned, ExampleAggregated
from server.core.services import Services
from server.domain_events.dispatcher import listens
from server.evaluation.domain_events import ModelStatusChanged, ModelTakenDown
from server.notifications import producers, service
from server.tasks.domain_events import TaskReviewed


@listens(ExampleAggregated)
async def example_decided(services: Services, event: ExampleAggregated) -> None:
    """The author hears that their example was validated or rejected, quoting their words."""
    if not event.decided:
        return
    example = {"id": event.example_id, "round": event.round_id, "user": event.author_id, "input": event.input}
    task = {"code": event.task_code, "name": event.task_name}
    await service.announce(services, [await producers.example_decided(example, event.status, task, event.input_fields)])


@listens(ModelStatusChanged)
async def model_status(services: Services, event: ModelStatusChanged) -> None:
    """The owner hears of the first deployment, scoring or failure of the model."""
    model = {
        "id": event.model_id,
        "owner": event.owner_id,
        "name": event.name,
        "status": event.status,
        "triton_name": event.triton_name,
    }
    await service.announce(services, [await producers.model_status(model, event.message)])


@listens(ModelTakenDown)
async def model_taken_down(services: Services, event: ModelTakenDown) -> None:
    model = {"id": event.model_id, "owner": event.owner_id, "name": event.name, "triton_name": event.triton_name}
    await service.announce(services, [await producers.model_taken_down(model, event.reason)])


@listens(TaskReviewed)
async def task_reviewed(services: Services, event: TaskReviewed) -> None:
    """Each owner of a proposal hears the admin's decision, with the note."""
    task = {"id": event.task_id, "code": event.code, "name": event.name}
    await service.announce(services, await producers.notify_task_decision(task, event.owner_ids, event.approved, event.note))


@listens(BadgeEarned)
async def badge_earned(services: Services, event: BadgeEarned) -> None:
    await service.announce(services, [await producers.badge_earned(event)])
