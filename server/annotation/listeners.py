"""What the annotation domain does after an example's aggregation (registered by server/listeners.py): the badges
its author and voters may have earned are looked for, and live views are told."""

from __future__ import annotations

from server.annotation.domain_events import ExampleAggregated
from server.annotation.records import ExampleStatus
from server.annotation.validation import jobs as validation_jobs
from server.annotation.validation import queries as validation_queries
from server.core import events, jobs
from server.core.services import Services
from server.domain_events.dispatcher import listens


@listens(ExampleAggregated)
async def look_for_badges(services: Services, event: ExampleAggregated) -> None:
    """Their numbers were recounted: new badges are looked for in a job (server/annotation/badge_awards.py)."""
    await jobs.enqueue(services.arq, validation_jobs.check_badges, event.task_id, sorted({event.author_id, *event.voter_ids}))


@listens(ExampleAggregated)
async def refresh_live_views(services: Services, event: ExampleAggregated) -> None:
    """The example's page, its author's list, the round's counters and the validators' queues."""
    await events.publish(services.redis, events.ExampleUpdated(example_id=event.example_id, status=event.status))
    if event.decided:
        await events.publish(
            services.redis, events.MyExampleChanged(user_id=event.author_id, example_id=event.example_id, change="outcome")
        )
    await events.publish(services.redis, events.RoundStatsChanged(round_id=event.round_id))
    still_open = event.status == ExampleStatus.OPEN
    # Leaving the queue concerns only the validators who may show it: its voters and whoever was handed it.
    holders = () if still_open else (await validation_queries.claim_holders([event.example_id])).get(event.example_id, ())
    await events.publish(
        services.redis,
        events.VoteCounted(
            round_id=event.round_id,
            example_id=event.example_id,
            still_open=still_open,
            voter_ids=tuple(event.voter_ids),
            holder_ids=holders,
        ),
    )
